import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/free-port";

// Issue 14, product 23 through the compiled binary: what Bun's server and h3 would answer on their
// own (a path that does not decode, headers too large for kasa) is kasa's envelope on the API and
// kasa's page elsewhere, with X-Trace-Id; raw bytes on a loopback socket, as a hostile client sends.

let child: ChildProcess;
let port = 0;

beforeAll(async () => {
  port = await freePort();
  const db = join(mkdtempSync(join(tmpdir(), "kasa-e2e-malformed-")), "sandbox.db");
  child = spawn("dist/kasa", ["sandbox", "--port", String(port), "--db", db, "--log-format", "pretty"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += String(d)));
  const deadline = Date.now() + 20_000;
  while (!out.includes("API key:") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
});
afterAll(() => void child?.kill("SIGTERM"));

/** Sends raw request bytes; answers status, headers (lower-case names) and body. */
function raw(request: Buffer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on("data", (d) => chunks.push(d));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const [head = "", ...rest] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") });
    });
  });
}

const request = (line: string, extra = "") =>
  Buffer.from(`${line} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extra}\r\n`, "latin1");
const bigHeader = `X-Big: ${"a".repeat(40_000)}\r\n`;
const manyHeaders = Array.from({ length: 150 }, (_, i) => `X-H${i}: v\r\n`).join("");

describe("issue 14 the binary answers malformed requests itself", () => {
  it.each([
    ["GET /v1/payments/%FF", 400, "validation_error", ""],
    ["GET /v1/payments/%E0%A4%A", 400, "validation_error", ""],
    ["GET /sandbox/clock%ZZ", 400, "validation_error", ""],
    ["GET /v1/payments/pay_x with a 40 KB header", 413, "request_too_large", bigHeader],
    ["GET /v1/payments/pay_x with 150 header fields", 413, "request_too_large", manyHeaders],
  ])("%s: %i %s in the envelope", async (title, status, code, extra) => {
    const line = title.split(" with ")[0]!;
    const r = await raw(request(line, extra));
    expect(r.status).toBe(status);
    expect(r.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(r.body).error).toMatchObject({ code, traceId: r.headers["x-trace-id"] });
  });

  it.each([
    ["GET /l/%C0%AF", 400, "validation_error", ""],
    ["GET /handoff/callback/%u0000", 400, "validation_error", ""],
    ["GET /handoff", 405, "method_not_allowed", ""],
    ["GET /l/some-token with a 40 KB header", 413, "request_too_large", bigHeader],
  ])("%s: %i %s as an HTML page with the code and trace id", async (title, status, code, extra) => {
    const line = title.split(" with ")[0]!;
    const r = await raw(request(line, extra));
    expect(r.status).toBe(status);
    expect(r.headers["content-type"]).toMatch(/^text\/html/);
    expect(r.headers["content-security-policy"]).toMatch(/default-src 'none'/);
    expect(r.body).toContain(`<code>${code}</code>`);
    expect(r.body).toContain(`<code>${r.headers["x-trace-id"]}</code>`);
  });
});
