import { request } from "node:http";

/** An answer, or the connection's error code (refused, reset): under a kill both are outcomes. */
export type Outcome = { status: number; body: string } | { error: string };

/**
 * One JSON request on its own connection (no keep-alive) to a kasa on 127.0.0.1, so a refused
 * connection is told apart from a reset one (shutdown and failover tests).
 */
export function oneRequest(port: number, method: "GET" | "POST", path: string, key: string, body?: unknown): Promise<Outcome> {
  return new Promise((resolve) => {
    const data = body === undefined ? "" : JSON.stringify(body);
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method,
        agent: false,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": Buffer.byteLength(data) },
      },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += String(d)));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
      },
    );
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.end(data);
  });
}
