/**
 * A real webhook receiver for tests: node:http on 127.0.0.1, an ephemeral port, scripted answers.
 *
 * It checks signatures with node:crypto directly instead of importing src/domain/webhooks/sign,
 * so a bug in the signer cannot be hidden by the same bug in the verifier (interface 6.3).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedReply {
  status?: number;
  /** Wait this long before sending the response head. */
  delayMs?: number;
  /** Send the head at once but hold the body back this long (a 2xx that never finishes in time). */
  bodyDelayMs?: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface ReceivedDelivery {
  method: string;
  path: string;
  /** As node:http gives them: lowercased names. */
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** X-Service-Signature matches an independent HMAC of the raw body. */
  verified: boolean;
  legacyVerified: boolean;
}

export interface Receiver {
  url: string;
  port: number;
  deliveries: ReceivedDelivery[];
  /** Queue answers for the next requests, in order; afterwards 200 (or 400 on a bad signature). */
  script(...replies: ScriptedReply[]): void;
  /** Forgets what was received and what was scripted (between tests sharing one receiver). */
  reset(): void;
  close(): Promise<void>;
}

function signatureMatches(rawBody: Buffer, secret: string, header: string | string[] | undefined): boolean {
  if (typeof header !== "string") return false;
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export async function startReceiver(options: { secret: string }): Promise<Receiver> {
  const deliveries: ReceivedDelivery[] = [];
  const queue: ScriptedReply[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  const answer = (res: ServerResponse, reply: ScriptedReply) => {
    // The client may have given up already (timeout tests); writing then is pointless, not an error.
    if (res.destroyed) return;
    res.writeHead(reply.status ?? 200, { "content-type": "text/plain", ...reply.headers });
    if (reply.bodyDelayMs === undefined) {
      res.end(reply.body ?? "ok");
      return;
    }
    res.write("partial ");
    later(reply.bodyDelayMs, () => res.destroyed || res.end(reply.body ?? "ok"));
  };

  const server = createServer(async (req, res) => {
    const rawBody = await readBody(req);
    const verified = signatureMatches(rawBody, options.secret, req.headers["x-service-signature"]);
    deliveries.push({
      method: req.method ?? "",
      path: req.url ?? "",
      headers: req.headers,
      rawBody: rawBody.toString("utf8"),
      verified,
      legacyVerified: signatureMatches(rawBody, options.secret, req.headers["x-legacy-signature"]),
    });
    // interface 6.3 rule 4: a receiver answers 400 on a signature mismatch.
    const reply = queue.shift() ?? { status: verified ? 200 : 400 };
    if (reply.delayMs === undefined) answer(res, reply);
    else later(reply.delayMs, () => answer(res, reply));
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    deliveries,
    script: (...replies) => void queue.push(...replies),
    reset: () => {
      deliveries.length = 0;
      queue.length = 0;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      // Keep-alive sockets from the client would otherwise hold close() open.
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port that was just listening and is now closed: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
