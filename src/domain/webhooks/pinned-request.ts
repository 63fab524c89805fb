/**
 * docs/decisions.md, Hardening: the webhook request connects to exactly the address the SSRF guard approved. The URL
 * keeps its host name (the Host header, TLS SNI and certificate check use it), while the socket's
 * name lookup answers the approved address instead of asking DNS again, so an answer that changes
 * between the check and the connection (DNS rebinding) has nothing to change.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { FetchLike } from "./deliver";
import type { ResolvedAddress } from "./ssrf";

/** A receiver's answer is only ever classified, never stored: this much of its body is read. */
const MAX_BODY_BYTES = 64 * 1024;

/** `node:net` asks with `all: true` (an array answer) or without (address, family); both are pinned. */
function pinnedLookup(pin: ResolvedAddress): LookupFunction {
  const family = pin.family === 6 ? 6 : 4;
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pin.address, family }]);
    else callback(null, pin.address, family);
  }) as unknown as LookupFunction;
}

function toResponse(res: IncomingMessage, body: Buffer): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const status = res.statusCode ?? 0;
  const empty = status === 204 || status === 205 || status === 304;
  return new Response(empty ? null : new Uint8Array(body), { status, headers });
}

/** A fetch-shaped POST over node:http(s) whose connection goes to `pin`, whatever DNS says now. */
export function pinnedFetch(pin: ResolvedAddress): FetchLike {
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url);
      const send = target.protocol === "https:" ? httpsRequest : httpRequest;
      const req = send(
        target,
        {
          method: init.method ?? "POST",
          headers: init.headers as Record<string, string>,
          lookup: pinnedLookup(pin),
          signal: init.signal ?? undefined,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size <= MAX_BODY_BYTES) chunks.push(chunk);
          });
          res.on("end", () => resolve(toResponse(res, Buffer.concat(chunks))));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(typeof init.body === "string" ? init.body : undefined);
    });
}
