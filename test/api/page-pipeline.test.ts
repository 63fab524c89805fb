import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { fail } from "../../src/errors";
import type { PageRoute } from "../../src/http/page";
import { PAGE_MESSAGES } from "../../src/http/page-messages";
import { harness, type Harness } from "../support/harness";
import { formClient } from "../../src/http/sandbox/form-client";

let h: Harness;
afterEach(async () => h?.close());

const ROUTES: PageRoute[] = [
  {
    method: "GET",
    path: "/boom",
    handle: () => {
      throw new Error("a bug");
    },
  },
  { method: "GET", path: "/refused", handle: () => fail("payment_link_not_found") },
];

describe("issue 19: the page pipeline's one HTML error path", () => {
  it("an unexpected error on a page is an HTML 500 page with the traceId, never JSON, and is logged", async () => {
    h = await harness();
    const app = createApp(h.deps, [], ROUTES);
    const res = await app.request("http://kasa.test/boom");
    const body = await res.text();
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toContain("text/html");
    const traceId = res.headers.get("x-trace-id")!;
    expect(traceId).toMatch(/^tr_/);
    expect(body).toContain(traceId);
    expect(body).toContain("internal_error");
    expect(body).not.toContain("a bug");
    expect(h.log.lines.join("\n")).toContain(traceId);
  });

  it("a catalog refusal no page rendered becomes a page with the table's sentence and the code", async () => {
    h = await harness();
    const res = await createApp(h.deps, [], ROUTES).request("http://kasa.test/refused");
    const body = await res.text();
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(body).toContain(PAGE_MESSAGES.payment_link_not_found);
    expect(body).toContain("payment_link_not_found");
  });

  it("the form client's guard turns an unexpected page 500 into a failing test", async () => {
    h = await harness();
    const app = createApp(h.deps, [], ROUTES);
    const client = formClient((url, init) => app.request(url, init), ["http://kasa.test"]);
    await expect(client.get("http://kasa.test/boom")).rejects.toThrow(/unexpected 500/);
    const allowing = formClient((url, init) => app.request(url, init), ["http://kasa.test"], 20, true);
    expect((await allowing.get("http://kasa.test/boom")).page?.status).toBe(500);
  });
});
