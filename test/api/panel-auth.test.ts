import { afterEach, describe, expect, it } from "vitest";
import { MINUTE_MS } from "../../src/limits";
import { harness, type Harness } from "../support/harness";
import { addPanelUser, codeOf, panelClient } from "../support/panel-client";

let h: Harness;
afterEach(async () => h?.close());

const EMAIL = "admin@shop.example";
const audit = async () => await h.store.q.panelAudit.page("ptn_test", null, 100);

async function setUp(config: Parameters<typeof harness>[0] = {}) {
  h = await harness(config);
  await addPanelUser(h, EMAIL, "admin");
  return panelClient(h);
}

describe("product 18 panel login and session cookie", () => {
  it("logging in sets an HttpOnly, SameSite=Strict cookie scoped to /panel and opens the overview", async () => {
    const c = await setUp();
    const r = await c.login(EMAIL);
    expect(r.status).toBe(303);
    expect(r.location).toBe("/panel/");
    const cookie = r.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^kasa_panel=[A-Za-z0-9_-]{43}; Path=\/panel; HttpOnly; SameSite=Strict$/);
    const home = await c.get("/panel/");
    expect(home.status).toBe(200);
    expect(home.text).toContain('lang="tr"');
    expect(home.headers.get("content-security-policy")).toContain("script-src 'nonce-");
    expect((await audit())[0]).toMatchObject({ action: "login", outcome: "ok", email: EMAIL });
  });

  it("the cookie is Secure when the base URL is https", async () => {
    const c = await setUp({ config: { baseUrl: "https://kasa.test" } });
    expect((await c.login(EMAIL)).headers.get("set-cookie")).toMatch(/; Secure$/);
  });

  it.each([
    ["a wrong password", EMAIL, "not-the-password"],
    ["an unknown address", "nobody@shop.example", "whatever-password"],
  ])("%s is a 401 page with the code, no cookie, same words", async (_name, email, password) => {
    const c = await setUp();
    const r = await c.login(email, password);
    expect(r.status).toBe(401);
    expect(codeOf(r.text)).toBe("unauthorized");
    expect(r.headers.get("set-cookie")).toBeNull();
    expect(r.text).toContain("wrong e-mail address or password");
  });

  it("five failures lock the account for 15 minutes, even against the right password; the lock then lifts", async () => {
    const c = await setUp();
    for (let i = 0; i < 5; i++) expect((await c.login(EMAIL, "wrong-password-x")).status).toBe(401);
    const locked = await c.login(EMAIL);
    expect(locked.status).toBe(403);
    expect(codeOf(locked.text)).toBe("forbidden");
    expect(locked.text).toContain("locked");
    expect((await audit()).map((a) => a.outcome)).toEqual(["forbidden", ...Array(5).fill("unauthorized")]);
    await h.advance(15 * MINUTE_MS);
    expect((await c.login(EMAIL)).status).toBe(303);
  });

  it("four failures then a success reset the count", async () => {
    const c = await setUp();
    for (let i = 0; i < 4; i++) await c.login(EMAIL, "wrong-password-x");
    expect((await c.login(EMAIL)).status).toBe(303);
    for (let i = 0; i < 4; i++) await c.login(EMAIL, "wrong-password-x");
    expect((await c.login(EMAIL)).status).toBe(303);
  });

  it("session fixation: a pre-login session id is never reused, and it dies at the new login", async () => {
    const c = await setUp();
    await c.login(EMAIL);
    const before = c.cookie!;
    await c.login(EMAIL);
    expect(c.cookie).not.toBe(before);
    const stale = panelClient(h);
    stale.cookie = before;
    expect((await stale.get("/panel/")).status).toBe(303);
    const planted = panelClient(h);
    planted.cookie = "kasa_panel=attacker-chosen-value-0000000000000000000000";
    await planted.login(EMAIL);
    expect(planted.cookie).not.toContain("attacker-chosen");
  });

  it("logout ends the session server-side: the old cookie opens nothing afterwards", async () => {
    const c = await setUp();
    await c.login(EMAIL);
    const kept = c.cookie!;
    const out = await c.act("/panel/logout");
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    const thief = panelClient(h);
    thief.cookie = kept;
    const r = await thief.get("/panel/payments");
    expect(r.status).toBe(303);
    expect(r.location).toBe("/panel/login");
    expect((await audit())[0]).toMatchObject({ action: "logout", outcome: "ok" });
  });

  it("idle for 30 minutes, the session has ended; a POST then is a 401 page", async () => {
    const c = await setUp();
    await c.login(EMAIL);
    const token = await c.csrf();
    await h.advance(30 * MINUTE_MS);
    expect((await c.get("/panel/")).location).toBe("/panel/login");
    const post = await c.post("/panel/keys", { csrf: token });
    expect(post.status).toBe(401);
    expect(codeOf(post.text)).toBe("unauthorized");
  });

  it("an active session still ends 12 hours after login", async () => {
    const c = await setUp();
    await c.login(EMAIL);
    for (let i = 0; i < 12 * 3 - 1; i++) {
      await h.advance(20 * MINUTE_MS);
      expect((await c.get("/panel/")).status).toBe(200);
    }
    await h.advance(20 * MINUTE_MS);
    expect((await c.get("/panel/")).status).toBe(303);
  });

  it("a made-up cookie is a redirect to the login page", async () => {
    const c = await setUp();
    c.cookie = "kasa_panel=forged";
    expect((await c.get("/panel/audit")).location).toBe("/panel/login");
  });

  it.each([
    ["an Origin of another site", { origin: "https://evil.example" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
  ])("login CSRF: a login form posted with %s is a 403 page and logs nobody in", async (_name, headers) => {
    await setUp();
    const res = await h.runtime.app.request("http://kasa.test/panel/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams({ email: EMAIL, password: "correct-horse-battery" }).toString(),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(codeOf(await res.text())).toBe("forbidden");
  });

  it("the login page has a per-IP budget (429 page with the code)", async () => {
    const c = await setUp({ limits: "default" });
    for (let i = 0; i < 10; i++) expect((await c.login(EMAIL, "wrong-password-x")).status).not.toBe(429);
    const r = await c.login(EMAIL);
    expect(r.status).toBe(429);
    expect(codeOf(r.text)).toBe("rate_limited");
    expect((await panelClient(h, "198.51.100.9").login(EMAIL)).status).not.toBe(429);
  });
});

describe("product 18 CSRF: every panel POST carries the session's token", () => {
  it.each([
    ["without a token", () => ({})],
    ["with another session's token", (other: string) => ({ csrf: other })],
    ["with an empty token", () => ({ csrf: "" })],
  ])("a POST %s is a 403 page, changes nothing, and is audited", async (_name, fields) => {
    const c = await setUp();
    await c.login(EMAIL);
    const other = panelClient(h);
    await other.login(EMAIL);
    const otherToken = await other.csrf();
    const keys = (await h.store.q.apiKeys.list("ptn_test")).length;
    const r = await c.post("/panel/keys", fields(otherToken));
    expect(r.status).toBe(403);
    expect(codeOf(r.text)).toBe("forbidden");
    expect(await h.store.q.apiKeys.list("ptn_test")).toHaveLength(keys);
    expect((await audit())[0]).toMatchObject({ action: "key.issue", outcome: "forbidden" });
  });
});
