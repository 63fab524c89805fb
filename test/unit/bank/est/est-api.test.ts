import { describe, expect, it } from "vitest";
import { callEst, MAX_ANSWER_BYTES } from "../../../../src/bank/est/api";
import type { EstConfig } from "../../../../src/bank/est/config";

// Product 17: what counts as an answer from the bank's /fim/api; everything else is unknown (null).

const CONFIG: EstConfig = {
  model: "3d",
  gateUrl: "https://bank.test/fim/est3Dgate",
  apiUrl: "https://bank.test/fim/api",
  clientId: "1",
  apiUser: "u",
  apiPassword: "p",
  storeKey: "k",
  lang: "tr",
  timeoutMs: 200,
};

const OK = '<?xml version="1.0" encoding="ISO-8859-9"?>\n<CC5Response><ProcReturnCode>00</ProcReturnCode></CC5Response>\n';
const answering = (res: () => Response) => ({ fetch: async () => res() });

describe("product 17: the EST API client", () => {
  it("reads a CC5Response", async () => {
    expect(
      await callEst(
        CONFIG,
        answering(() => new Response(OK)),
        { Type: "Auth" },
      ),
    ).toEqual({ ProcReturnCode: "00" });
  });
  it.each([
    ["HTTP 500", () => new Response(OK, { status: 500 })],
    ["HTTP 502 HTML", () => new Response("<html>bad gateway</html>", { status: 502 })],
    [
      "a body past the cap (declared)",
      () => new Response("x".repeat(MAX_ANSWER_BYTES + 1), { headers: { "content-length": String(MAX_ANSWER_BYTES + 1) } }),
    ],
    [
      "a body past the cap (streamed)",
      () =>
        new Response(
          new ReadableStream({
            pull(c) {
              c.enqueue(new Uint8Array(16 * 1024));
            },
          }),
        ),
    ],
  ])("%s is unknown (null)", async (_name, res) => {
    expect(await callEst(CONFIG, answering(res), { Type: "Auth" })).toBeNull();
  });
  it("a bank that does not answer within timeoutMs is unknown (null)", async () => {
    const hanging = {
      fetch: (_url: string, init: RequestInit) =>
        new Promise<Response>((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason))),
    };
    const started = Date.now();
    expect(await callEst(CONFIG, hanging, { Type: "Auth" })).toBeNull();
    expect(Date.now() - started).toBeLessThan(2_000);
  });
  it("a refused connection is unknown (null)", async () => {
    expect(await callEst(CONFIG, { fetch: () => Promise.reject(new TypeError("fetch failed")) }, { Type: "Auth" })).toBeNull();
  });
});
