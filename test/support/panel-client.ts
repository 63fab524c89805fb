import { addUser } from "../../src/domain/users/service";
import { Sensitive } from "../../src/sensitive";
import type { Harness } from "./harness";

// A merchant panel user's browser, in process (product 18): keeps the session cookie, reads the
// CSRF token from the pages, and never follows redirects (tests look at each 303). An unexpected
// 500 throws, as for every other request of the tests.

export const PANEL_PASSWORD = "correct-horse-battery";

export type PanelReply = { status: number; headers: Headers; text: string; location: string | null };

export async function addPanelUser(h: Harness, email: string, role: "viewer" | "staff" | "admin", partnerId = "ptn_test"): Promise<void> {
  await addUser(h.deps, { partnerId, email, role, password: new Sensitive(PANEL_PASSWORD) });
}

/** The refusal page's code (the panel's and the pipeline's pages both print it in <code>). */
export const codeOf = (text: string): string | null => /Hata kodu(?:<\/dt><dd>|: )<code>([^<]+)<\/code>/.exec(text)?.[1] ?? null;

export function panelClient(h: Harness, ip = "203.0.113.7") {
  let cookie: string | null = null;
  async function send(method: string, path: string, fields?: Record<string, string>): Promise<PanelReply> {
    const headers: Record<string, string> = { "x-forwarded-for": ip };
    if (cookie !== null) headers.cookie = cookie;
    if (fields) headers["content-type"] = "application/x-www-form-urlencoded";
    const res = await h.runtime.app.request(`http://kasa.test${path}`, {
      method,
      headers,
      body: fields ? new URLSearchParams(fields).toString() : undefined,
    });
    const text = await res.text();
    if (res.status === 500) throw new Error(`unexpected 500 on ${method} ${path}: ${text}\n${h.log.lines.join("\n")}`);
    const set = res.headers.get("set-cookie");
    if (set) {
      const pair = set.split(";")[0]!;
      cookie = pair.endsWith("=") ? null : pair;
    }
    return { status: res.status, headers: res.headers, text, location: res.headers.get("location") };
  }
  const client = {
    get cookie() {
      return cookie;
    },
    set cookie(value: string | null) {
      cookie = value;
    },
    get: (path: string) => send("GET", path),
    post: (path: string, fields: Record<string, string>) => send("POST", path, fields),
    login: (email: string, password = PANEL_PASSWORD) => send("POST", "/panel/login", { email, password }),
    /** The session's CSRF token, as every panel page carries it in its forms. */
    async csrf(): Promise<string> {
      const page = await send("GET", "/panel/");
      const token = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1];
      if (!token) throw new Error(`no CSRF token on /panel/ (${page.status})`);
      return token;
    },
    /** A POST with this session's token, as the page's form would send it. */
    async act(path: string, fields: Record<string, string> = {}): Promise<PanelReply> {
      return send("POST", path, { csrf: await client.csrf(), ...fields });
    },
  };
  return client;
}
