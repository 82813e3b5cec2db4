// Baseline: a bare node:http server answering a constant JSON body of the same size class as
// a status reply. Prints its URL once listening.
import { createServer } from "node:http";

const body = JSON.stringify({
  data: {
    object: "timer_status",
    timer_id: "00000000-0000-4000-8000-000000000000",
    type: "fixed",
    status: "draft",
    state: "running",
    remaining: { total_seconds: 90062, days: 1, hours: 1, minutes: 1, seconds: 2 },
    ended: false,
    target_at: "2030-01-01T00:00:00.000Z",
    server_time: "2029-12-30T22:58:58.500Z",
  },
  request_id: "00000000-0000-4000-8000-000000000000",
});
const server = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
