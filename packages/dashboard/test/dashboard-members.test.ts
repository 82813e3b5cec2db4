// The Members page over real HTTP: owners invite (one-time link), change roles and remove
// members; the last owner is kept; members are refused; every change needs the CSRF token.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardClient, signedInUser } from "./_dashboard";
import { startTestServer, type TestServer } from "./_harness";

let s: TestServer;
const PASSWORD = "correct horse battery staple";

/** The invitation link shown on the page after an invite (or a new link). */
function shownLink(body: string): string {
  const m = /id="secret" type="text" readonly value="([^"]+)"/.exec(body);
  expect(m, "a link is shown").not.toBeNull();
  return m![1]!.replaceAll("&amp;", "&");
}

/** The id of a user's row on the members page, from its role form. */
function userId(body: string, email: string): string {
  // Rows only: the page may also name the user in a panel above the table.
  const row = body
    .split("<tr>")
    .slice(1)
    .find((r) => r.includes(email));
  const m = /\/members\/([0-9a-f-]{36})\/role/.exec(row ?? "");
  expect(m, `a row for ${email}`).not.toBeNull();
  return m![1]!;
}

describe("dashboard members", () => {
  beforeAll(async () => {
    s = await startTestServer({});
  });
  afterAll(async () => {
    await s?.close();
  });

  it("invites a member whose one-time link signs them in once, with the member's rights", async () => {
    const { client, account } = await signedInUser(s);
    const list = await client.get("/dashboard/production/members");
    expect(list.status).toBe(200);
    expect(list.body_text).toContain('aria-current="page">Members');
    const invited = await client.post("/dashboard/production/members", {
      email: "New.Person@Example.com",
      role: "member",
    });
    // Post/redirect/get: the link is shown once, on the page the post redirects to.
    expect(invited.status).toBe(303);
    const location = invited.headers.get("location")!;
    expect(location).toBe("/dashboard/production/members");
    const shown = await client.get(location);
    expect(shown.body_text).toContain("Invitation for new.person@example.com");
    const url = shownLink(shown.body_text);
    expect((await client.get(location)).body_text).not.toContain("Invitation for");
    expect(url).toMatch(/^http:\/\/[^/]+\/dashboard\/set-password\?token=[A-Za-z0-9_-]{43}$/);
    // Listed as invited, in this account, with the member role.
    const users = await s.admin.listUsers(account);
    expect(users.find((u) => u.email === "new.person@example.com")).toMatchObject({
      role: "member",
      has_password: false,
    });
    // The page no longer shows the link.
    expect((await client.get("/dashboard/production/members")).body_text).not.toContain(
      url.split("token=")[1]!,
    );

    const person = dashboardClient(s);
    const path = new URL(url).pathname + new URL(url).search;
    expect((await person.get(path)).status).toBe(200);
    const token = new URL(url).searchParams.get("token")!;
    const done = await person.post("/dashboard/set-password", {
      token,
      password: PASSWORD,
      confirm: PASSWORD,
    });
    expect(done.status).toBe(303);
    expect((await person.get("/dashboard/production/timers")).status).toBe(200);
    // A member: no Members item, and the page refuses them.
    expect((await person.get("/dashboard/production")).body_text).not.toContain(">Members<");
    const refused = await person.get("/dashboard/production/members");
    expect(refused.status).toBe(403);
    expect(refused.body_text).toContain("Only an owner");
    expect(
      (await person.post("/dashboard/production/members", { email: "x@example.com" })).status,
    ).toBe(403);
    // The link worked once.
    expect((await dashboardClient(s).get(path)).status).toBe(410);
  });

  it("refuses a bad or taken email with the reason, keeping what was typed", async () => {
    const { client, email } = await signedInUser(s);
    await client.get("/dashboard/production/members");
    const bad = await client.post("/dashboard/production/members", {
      email: "not-an-email",
      role: "member",
    });
    expect(bad.status).toBe(400);
    expect(bad.body_text).toContain("is not an email address");
    expect(bad.body_text).toContain('value="not-an-email"');
    const taken = await client.post("/dashboard/production/members", { email, role: "owner" });
    expect(taken.status).toBe(400);
    expect(taken.body_text).toContain("already exists");
  });

  it("changes roles and never demotes or removes the last owner", async () => {
    const { client, account, email } = await signedInUser(s);
    const page = await client.get("/dashboard/production/members");
    const me = userId(page.body_text, email);
    const demote = await client.post(`/dashboard/production/members/${me}/role`, {
      role: "member",
    });
    expect(demote.status).toBe(409);
    expect(demote.body_text).toContain("An account needs at least one owner");
    const remove = await client.post(`/dashboard/production/members/${me}/remove`, {
      confirm: "yes",
    });
    expect(remove.status).toBe(409);
    expect((await s.admin.listUsers(account)).find((u) => u.id === me)?.role).toBe("owner");

    await client.post("/dashboard/production/members", {
      email: "two@example.com",
      role: "member",
    });
    const other = userId((await client.get("/dashboard/production/members")).body_text, "two@");
    const promote = await client.post(`/dashboard/production/members/${other}/role`, {
      role: "owner",
    });
    expect(promote.status).toBe(303);
    expect(promote.headers.get("location")).toBe("/dashboard/production/members?notice=role");
    expect((await s.admin.listUsers(account)).find((u) => u.id === other)?.role).toBe("owner");
    // Now there are two owners: I may step down, and lose the page.
    const stepDown = await client.post(`/dashboard/production/members/${me}/role`, {
      role: "member",
    });
    expect(stepDown.status).toBe(303);
    expect((await client.get("/dashboard/production/members")).status).toBe(403);
    const bogus = await dashboardClient(s).get("/dashboard/production/members");
    expect(bogus.status).toBe(303);
  });

  it("removes a member after the confirmation and signs them out; another account's user is not found", async () => {
    const owner = await signedInUser(s);
    const member = await signedInUser(s, "member");
    const { client } = owner;
    const { link } = await s.admin.createUser({
      account: owner.account,
      email: "gone@example.com",
      role: "member",
    });
    const gone = dashboardClient(s);
    await gone.get(link.path);
    await gone.post("/dashboard/set-password", {
      token: new URL(link.path, s.url).searchParams.get("token")!,
      password: PASSWORD,
      confirm: PASSWORD,
    });
    expect((await gone.get("/dashboard/production")).status).toBe(200);
    const id = userId((await client.get("/dashboard/production/members")).body_text, "gone@");
    const unconfirmed = await client.post(`/dashboard/production/members/${id}/remove`, {});
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body_text).toContain("Tick the box");
    const noCsrf = await client.post(
      `/dashboard/production/members/${id}/remove`,
      { confirm: "yes" },
      { csrf: null },
    );
    expect(noCsrf.status).toBe(403);
    const ok = await client.post(`/dashboard/production/members/${id}/remove`, { confirm: "yes" });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/dashboard/production/members?notice=removed");
    expect((await gone.get("/dashboard/production")).status).toBe(303);
    expect((await s.admin.listUsers(owner.account)).map((u) => u.email)).not.toContain(
      "gone@example.com",
    );
    // A user of another account cannot be changed, removed or re-linked from here.
    const theirs = (await s.admin.listUsers(member.account))[0]!;
    await client.get("/dashboard/production/members");
    for (const action of ["role", "remove", "link"]) {
      const res = await client.post(`/dashboard/production/members/${theirs.id}/${action}`, {
        role: "owner",
        confirm: "yes",
      });
      expect(res.status, action).toBe(404);
    }
    expect((await s.admin.listUsers(member.account))[0]).toEqual(theirs);
  });

  it("issues a new link for a member; the earlier one stops working", async () => {
    const { client, account } = await signedInUser(s);
    const first = await s.admin.createUser({ account, email: "again@example.com", role: "member" });
    const id = userId((await client.get("/dashboard/production/members")).body_text, "again@");
    const posted = await client.post(`/dashboard/production/members/${id}/link`, {});
    expect(posted.status).toBe(303);
    const res = await client.get(posted.headers.get("location")!);
    expect(res.body_text).toContain("New link for again@example.com");
    const url = new URL(shownLink(res.body_text));
    expect((await dashboardClient(s).get(url.pathname + url.search)).status).toBe(200);
    expect((await dashboardClient(s).get(first.link.path)).status).toBe(410);
  });
});
