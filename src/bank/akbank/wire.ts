import { readCapped } from "../../bytes";
import type { AkbankConfig } from "./config";
import { authHash } from "./crypt";
import { type Json, phpJson } from "./requests";

// One JSON request to the AkbankPos API, signed in the `auth-hash` header over the exact body
// octets. Anything but a readable JSON object within `timeoutMs` (a timeout, a refused
// connection, HTTP 5xx, HTML, garbage or truncated JSON) has no answer: an unknown outcome the
// caller resolves by asking the order's history, never by sending the request again.

export type AkbankAnswer = Readonly<Record<string, unknown>>;

/** An answer is a few kilobytes; anything past this is not one (and is not buffered). */
export const MAX_ANSWER_BYTES = 256 * 1024;

export interface AkbankTransport {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
}

/** The HTTP status and, when readable, the JSON object; `status` 0: no HTTP answer at all. */
export interface AkbankReply {
  status: number;
  answer: AkbankAnswer | null;
}

async function readJson(response: Response): Promise<AkbankAnswer | null> {
  if (Number(response.headers.get("content-length") ?? "0") > MAX_ANSWER_BYTES) {
    await response.body?.cancel();
    return null;
  }
  const bytes = await readCapped(response.body, MAX_ANSWER_BYTES);
  if (bytes === null) return null;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as AkbankAnswer) : null;
  } catch {
    return null;
  }
}

export async function postAkbank(config: AkbankConfig, transport: AkbankTransport, url: string, body: Json): Promise<AkbankReply> {
  const bytes = new TextEncoder().encode(phpJson(body));
  try {
    const response = await transport.fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "auth-hash": authHash(config.secretKey, bytes) },
      body: bytes as unknown as BodyInit,
      signal: AbortSignal.timeout(config.timeoutMs),
      redirect: "error",
    });
    return { status: response.status, answer: await readJson(response) };
  } catch {
    return { status: 0, answer: null };
  }
}

/** A successful HTTP answer's JSON, else null (unknown outcome). */
export async function callAkbank(config: AkbankConfig, transport: AkbankTransport, url: string, body: Json): Promise<AkbankAnswer | null> {
  const reply = await postAkbank(config, transport, url, body);
  return reply.status >= 200 && reply.status < 300 ? reply.answer : null;
}

export const str = (answer: AkbankAnswer | null | undefined, name: string): string | null => {
  const value = answer?.[name];
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : null;
};

export const obj = (answer: AkbankAnswer | null | undefined, name: string): AkbankAnswer | null => {
  const value = answer?.[name];
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as AkbankAnswer) : null;
};

/** The bank's words for a record and the log: `VPS-1005: Provizyon Hatası (51 …)`; never a secret. */
export function messageOf(answer: AkbankAnswer): string | null {
  const code = str(answer, "responseCode") ?? str(answer, "code");
  const text = str(answer, "responseMessage") ?? str(answer, "message");
  const host = [str(answer, "hostResponseCode"), str(answer, "hostMessage")].filter(Boolean).join(" ");
  const main = [code, text].filter(Boolean).join(": ");
  return (host ? `${main} (${host})` : main) || null;
}
