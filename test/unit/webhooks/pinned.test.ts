import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { Config } from "../../../src/deps";
import type { FetchLike } from "../../../src/domain/webhooks/deliver";
import { pinnedFetch } from "../../../src/domain/webhooks/pinned-request";
import type { ResolvedAddress, ResolveHost } from "../../../src/domain/webhooks/ssrf";
import { attemptDelivery } from "../../../src/domain/webhooks/target";
import type { DeliveryRow, PartnerRow } from "../../../src/store/rows";

// Issue 15 item 5, product 23: the SSRF guard resolved the name, checked it, and then fetch
// resolved it again, so a DNS answer that changed in between (rebinding) reached a blocked address.
// The request now connects to the address the guard approved. Nothing here leaves loopback: the
// wiring test observes the pin without connecting, the connection test pins to 127.0.0.1.

const SERVE: Config = { mode: "serve", baseUrl: "http://kasa.test", trustProxy: false, allowPrivateWebhooks: false };
const ROW: DeliveryRow = {
  id: "evt_1",
  partnerId: "ptn_test",
  type: "payment.captured",
  body: '{"id":"evt_1"}',
  occurredAtMs: 0,
  status: "pending",
  attempts: 0,
  nextAttemptAtMs: 0,
  firstAttemptAtMs: null,
  createdAtMs: 0,
  updatedAtMs: 0,
};
const PARTNER = { id: "ptn_test", webhookUrl: "https://rebind.partner.example/hooks", webhookSecret: "whsec_test_secret" } as PartnerRow;

describe("product 23 SSRF: the delivery connects to the address that was checked", () => {
  it("a resolver that answers a public address, then loopback, is asked once; the request is pinned to the public one", async () => {
    const answers = ["93.184.216.34", "127.0.0.1"];
    let lookups = 0;
    const resolve: ResolveHost = async () => [{ address: answers[lookups++]!, family: 4 }];
    const pins: ResolvedAddress[] = [];
    const pin = (address: ResolvedAddress): FetchLike => {
      pins.push(address);
      return async () => new Response(null, { status: 204 });
    };
    const result = await attemptDelivery(ROW, PARTNER, SERVE, { resolve, pin });
    expect(result.outcome).toBe("delivered");
    expect(lookups).toBe(1);
    expect(pins).toEqual([{ address: "93.184.216.34", family: 4 }]);
  });

  it("a blocked answer is refused before anything is pinned or sent", async () => {
    const pins: ResolvedAddress[] = [];
    const result = await attemptDelivery(ROW, PARTNER, SERVE, {
      resolve: async () => [{ address: "198.18.0.1", family: 4 }],
      pin: (address) => {
        pins.push(address);
        return async () => new Response(null, { status: 204 });
      },
    });
    expect(result).toMatchObject({ outcome: "permanent", error: expect.stringContaining("benchmarking") });
    expect(pins).toEqual([]);
  });
});

describe("product 23 pinnedFetch: the socket goes to the pinned address, the request keeps its host name", () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it("a name that resolves nowhere (.invalid) reaches the loopback receiver it is pinned to, Host header intact", async () => {
    const seen: Array<{ host: string | undefined; body: string }> = [];
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += String(c)));
      req.on("end", () => {
        seen.push({ host: req.headers.host, body });
        res.writeHead(202, { "x-receiver": "yes" }).end("accepted");
      });
    });
    const port = await new Promise<number>((done) =>
      server!.listen(0, "127.0.0.1", () => done((server!.address() as { port: number }).port)),
    );
    const send = pinnedFetch({ address: "127.0.0.1", family: 4 });
    const res = await send(`http://rebind.invalid:${port}/hooks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect([res.status, res.headers.get("x-receiver"), await res.text()]).toEqual([202, "yes", "accepted"]);
    expect(seen).toEqual([{ host: `rebind.invalid:${port}`, body: '{"a":1}' }]);
  });
});
