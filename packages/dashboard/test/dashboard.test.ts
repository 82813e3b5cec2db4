import { createHandler } from "@tminus/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboard } from "../src/index";
import { dashboardClient, signedInUser } from "./_dashboard";
import { startTestServer, type TestServer } from "./_harness";

let s: TestServer;

describe("dashboard sessions, CSRF and roles", () => {
  beforeAll(async () => {
    s = await startTestServer({ dashboard: { sign_in_attempts_per_15_minutes: 5 } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it("sets a password through a one-time link, which then no longer works", async () => {
    const key = await s.key("production");
    const { link } = await s.admin.createUser({
      account: key.account,
      email: "Link.User@Example.com",
      role: "owner",
    });
    expect(link.path).toMatch(/^\/dashboard\/set-password\?token=[A-Za-z0-9_-]{43}$/);
    expect(link.url).toBeNull();
    const c = dashboardClient(s);
    const page = await c.get(link.path);
    expect(page.body_text).toContain("link.user@example.com");
    const token = new URL(link.path, s.url).searchParams.get("token")!;
    const tooShort = await c.post("/dashboard/set-password", {
      token,
      password: "short",
      confirm: "short",
    });
    expect(tooShort.status).toBe(400);
    const ok = await c.post("/dashboard/set-password", {
      token,
      password: "a long enough passphrase",
      confirm: "a long enough passphrase",
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/dashboard/production");
    const again = await dashboardClient(s).get(link.path);
    expect(again.status).toBe(410);
  });

  it("sets the session cookie HttpOnly, SameSite=Lax, on the dashboard's path, never Secure over http", async () => {
    const key = await s.key("production");
    const { link } = await s.admin.createUser({
      account: key.account,
      email: "c@example.com",
      role: "member",
    });
    const c = dashboardClient(s);
    await c.get(link.path);
    const token = new URL(link.path, s.url).searchParams.get("token")!;
    const res = await c.post("/dashboard/set-password", {
      token,
      password: "x".repeat(12),
      confirm: "x".repeat(12),
    });
    const cookie = res.headers.getSetCookie().find((l) => l.startsWith("tminus_session="))!;
    expect(cookie).toMatch(/; Path=\/dashboard; Max-Age=43200; HttpOnly; SameSite=Lax$/);
  });

  it("signs in with the password and refuses a wrong one with the same message as an unknown email", async () => {
    const { email, password } = await signedInUser(s);
    const c = dashboardClient(s);
    await c.get("/dashboard/sign-in");
    const wrong = await c.post("/dashboard/sign-in", { email, password: "not the password" });
    expect(wrong.status).toBe(401);
    const unknown = await c.post("/dashboard/sign-in", { email: "nobody@example.com", password });
    expect(unknown.status).toBe(401);
    expect(unknown.body_text).toContain("The email or the password is not right.");
    const ok = await c.post("/dashboard/sign-in", { email: email.toUpperCase(), password });
    expect(ok.status).toBe(303);
    expect((await c.get("/dashboard/production")).status).toBe(200);
  });

  it("limits sign-in attempts per email, the right password included", async () => {
    const { email, password } = await signedInUser(s);
    const c = dashboardClient(s);
    await c.get("/dashboard/sign-in");
    for (let i = 0; i < 5; i++) {
      expect((await c.post("/dashboard/sign-in", { email, password: `wrong ${i}` })).status).toBe(
        401,
      );
    }
    const limited = await c.post("/dashboard/sign-in", { email, password });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // "15 minutes", "1 minute": a count in words, never "minute(s)".
    expect(limited.body_text).toMatch(/Try again in (1 minute|([02-9]|1\d) minutes)\./);
    expect(limited.headers.getSetCookie().some((l) => l.startsWith("tminus_session="))).toBe(false);
  });

  it("refuses a state-changing request without the CSRF token, with a wrong one, or from another origin", async () => {
    const { client } = await signedInUser(s);
    await client.get("/dashboard/production/keys");
    const none = await client.post("/dashboard/production/keys", {}, { csrf: null });
    expect(none.status).toBe(403);
    const wrong = await client.post("/dashboard/production/keys", {}, { csrf: "0".repeat(64) });
    expect(wrong.status).toBe(403);
    const foreign = await client.post(
      "/dashboard/production/keys",
      {},
      { origin: "https://evil.example" },
    );
    expect(foreign.status).toBe(403);
    const ok = await client.post("/dashboard/production/keys", { scope: "timers:read" });
    expect(ok.status).toBe(303);
    // The flash opens only with its own session's cookie.
    const other = (await signedInUser(s)).client;
    other.cookies.set("tminus_flash", client.cookies.get("tminus_flash")!);
    expect((await other.get("/dashboard/production/keys")).body_text).not.toMatch(
      /value="svc_live_/,
    );
    const shown = await client.get(ok.headers.get("location")!);
    expect(shown.body_text).toMatch(/value="svc_live_[A-Za-z0-9]+"/);
    // Shown once: the flash is cleared, and another session cannot open it.
    expect(shown.headers.get("set-cookie")).toMatch(/^tminus_flash=; .*Max-Age=0/);
    // The sign-in form is protected too: a post without the form cookie's token is refused.
    const fresh = dashboardClient(s);
    expect(
      (
        await fresh.post(
          "/dashboard/sign-in",
          { email: "a@b.co", password: "x" },
          { csrf: "1".repeat(64) },
        )
      ).status,
    ).toBe(403);
  });

  it("ends a session when it expires", async () => {
    const { client } = await signedInUser(s);
    s.setNow(Date.now() + 12 * 3_600_000 + 1000);
    try {
      const res = await client.get("/dashboard/production");
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/dashboard/sign-in");
      expect((await client.post("/dashboard/production/keys", {})).status).toBe(403);
    } finally {
      s.setNow(null);
    }
  });

  it("signs out one browser, or every browser of the user", async () => {
    const { client, email, password } = await signedInUser(s);
    const other = dashboardClient(s);
    await other.get("/dashboard/sign-in");
    expect((await other.post("/dashboard/sign-in", { email, password })).status).toBe(303);
    const third = dashboardClient(s);
    await third.get("/dashboard/sign-in");
    await third.post("/dashboard/sign-in", { email, password });

    await client.get("/dashboard/production");
    const out = await client.post("/dashboard/sign-out", {});
    expect(out.status).toBe(303);
    expect((await client.get("/dashboard/production")).status).toBe(303);
    expect((await other.get("/dashboard/production")).status).toBe(200);

    const everywhere = await other.post("/dashboard/sign-out-everywhere", {});
    expect(everywhere.status).toBe(303);
    expect((await other.get("/dashboard/production")).status).toBe(303);
    expect((await third.get("/dashboard/production")).status).toBe(303);
  });

  it("lets members work with timers and usage but not keys or webhooks", async () => {
    const { client } = await signedInUser(s, "member");
    expect((await client.get("/dashboard/production/keys")).status).toBe(403);
    expect((await client.get("/dashboard/production/webhooks")).status).toBe(403);
    expect((await client.post("/dashboard/production/keys", {})).status).toBe(403);
    expect((await client.get("/dashboard/production/timers")).status).toBe(200);
    expect((await client.get("/dashboard/production/usage")).status).toBe(200);
    const home = await client.get("/dashboard/production");
    expect(home.body_text).not.toContain("API keys");
  });

  it("deletes a webhook destination only after the confirmation", async () => {
    const { client } = await signedInUser(s);
    await client.get("/dashboard/production/webhooks");
    const added = await client.post("/dashboard/production/webhooks/destinations", {
      url: "https://hooks.example.com/dashboard-delete",
    });
    expect(added.status).toBe(303);
    const page = await client.get(added.headers.get("location")!);
    const id = /destinations\/([0-9a-f-]{36})\/delete/.exec(page.body_text)![1]!;
    const unconfirmed = await client.post(
      `/dashboard/production/webhooks/destinations/${id}/delete`,
      {},
    );
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body_text).toContain("Tick the box");
    expect(unconfirmed.body_text).toContain("dashboard-delete");
    const ok = await client.post(`/dashboard/production/webhooks/destinations/${id}/delete`, {
      confirm: "yes",
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/dashboard/production/webhooks?notice=deleted");
    const after = await client.get("/dashboard/production/webhooks?notice=deleted");
    expect(after.body_text).toContain("Destination deleted.");
    expect(after.body_text).not.toContain("dashboard-delete");
    const again = await client.post(`/dashboard/production/webhooks/destinations/${id}/delete`, {
      confirm: "yes",
    });
    expect(again.status).toBe(404);
  });

  it("escapes what users typed", async () => {
    const { client } = await signedInUser(s);
    const res = await client.get("/dashboard/sign-in");
    expect(res.status).toBe(200);
    await client.get("/dashboard/sign-in");
    const echoed = await client.post("/dashboard/sign-in", {
      email: '"><script>alert(1)</script>',
      password: "x",
    });
    expect(echoed.body_text).not.toContain("<script>alert(1)");
    expect(echoed.body_text).toContain("&lt;script&gt;");
  });
});

describe("dashboard placement", () => {
  it("can be turned off or moved, and follows the handler's basePath", async () => {
    const { sqliteStore } = await import("@tminus/store/sqlite");
    const store = sqliteStore({ path: ":memory:" });
    try {
      const off = createHandler({
        store,
        config: { dashboard: { enabled: false } },
        housekeeping: false,
        mounts: [dashboard()],
      });
      expect((await off(new Request("http://x/dashboard/sign-in"))).status).toBe(404);
      await off.close();
      const moved = createHandler({
        store,
        config: { dashboard: { path: "/admin/timers" } },
        basePath: "/countdown",
        housekeeping: false,
        mounts: [dashboard()],
      });
      const page = await moved(new Request("https://x/countdown/admin/timers/sign-in"));
      expect(page.status).toBe(200);
      const cookie = page.headers.getSetCookie()[0]!;
      expect(cookie).toContain("Path=/countdown/admin/timers;");
      expect(cookie).toContain("; Secure");
      expect(await page.text()).toContain('action="/countdown/admin/timers/sign-in"');
      expect((await moved(new Request("https://x/countdown/dashboard/sign-in"))).status).toBe(404);
      await moved.close();
    } finally {
      await store.close();
    }
  });
});

describe("dashboard timers", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ render: { threads: 0 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("previews a form as a PNG without creating anything, and names the first problem", async () => {
    const { client } = await signedInUser(t);
    const query = new URLSearchParams({
      name: "Drop",
      type: "recurring",
      timezone: "Europe/Berlin",
      freq: "WEEKLY",
      at_time: "17:00",
      starts_on: "2030-01-04",
    });
    query.append("byday", "FR");
    for (const u of ["days", "hours", "minutes", "seconds"]) query.append("units", u);
    const started = performance.now();
    const ok = await client.get(`/dashboard/production/preview.png?${query}`);
    expect(ok.status, ok.body_text).toBe(200);
    expect(ok.headers.get("content-type")).toBe("image/png");
    expect(ok.headers.get("tminus-preview-summary")).toMatch(
      /^Every week on Friday at 17:00 \(Europe\/Berlin\); next: Fri 4 Jan, 17:00 Berlin time \(16:00 UTC\)/,
    );
    console.log("preview ms", performance.now() - started);
    query.set("timezone", "Mars/Olympus");
    const bad = await client.get(`/dashboard/production/preview.png?${query}`);
    expect(bad.status).toBe(422);
    expect(JSON.parse(bad.body_text).field).toBe("timezone");
    const key = await t.key("production");
    void key;
  });

  it("previews a rule that ends on a date, and the ended look", async () => {
    const { client } = await signedInUser(t);
    const query = new URLSearchParams({
      type: "recurring",
      timezone: "Europe/Berlin",
      freq: "DAILY",
      at_time: "08:00",
      starts_on: "2030-01-04",
      rule_end: "until",
      until: "2030-01-10",
    });
    for (const u of ["hours", "minutes"]) query.append("units", u);
    const running = await client.get(`/dashboard/production/preview.png?${query}`);
    expect(running.status, running.body_text).toBe(200);
    expect(running.headers.get("tminus-preview-summary")).toMatch(
      /^Every day at 08:00 \(Europe\/Berlin\), until 2030-01-10; next: Fri 4 Jan, 08:00 Berlin time \(07:00 UTC\); starts in the future, on Fri 4 Jan$/,
    );
    query.set("preview_ended", "on");
    const ended = await client.get(`/dashboard/production/preview.png?${query}`);
    expect(ended.headers.get("tminus-preview-summary")).toMatch(/^Showing the ended look\. /);
    expect(ended.status).toBe(200);
    expect(ended.headers.get("content-type")).toBe("image/png");
    query.set("until", "not a date");
    const bad = await client.get(`/dashboard/production/preview.png?${query}`);
    expect(bad.status).toBe(422);
    // Said in the form's words, by the form's field.
    expect(JSON.parse(bad.body_text)).toMatchObject({
      field: "until",
      message: "Last day: pick the last day, or choose another end.",
    });
  });
});

describe("dashboard settings", () => {
  it("refuses settings that do not fit, naming the field", async () => {
    const { resolveConfig } = await import("@tminus/http");
    expect(resolveConfig({}).dashboard).toEqual({
      enabled: true,
      path: "/dashboard",
      session_hours: 12,
      link_hours: 72,
      sign_in_attempts_per_15_minutes: 10,
    });
    for (const [input, message] of [
      [{ path: "dashboard" }, "config.dashboard.path"],
      [{ path: "/api/v1" }, "config.dashboard.path"],
      [{ path: "/a b" }, "config.dashboard.path"],
      [{ enabled: "no" }, "config.dashboard.enabled"],
      [{ session_hours: 0 }, "config.dashboard.session_hours"],
      [{ colour: "red" }, "config.dashboard.colour is not a known setting"],
    ] as const) {
      expect(() => resolveConfig({ dashboard: input as never })).toThrow(message);
    }
  });
});
