import { createApp } from "./app.js";

const dbPath = process.env.TMINUS_DB ?? "tminus-example.db";
const { app, close } = createApp({ dbPath });
const server = app.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => {
  const { port } = server.address();
  console.log(`example app listening on http://127.0.0.1:${port} (tminus at /countdown/api/v1)`);
});
const stop = () => server.close(() => close().then(() => process.exit(0)));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
