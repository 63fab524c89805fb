import { readCapped } from "../../bytes";
import type { EstConfig } from "./config";
import { readXml, writeXml, type XmlRecord, type XmlValue } from "./xml";

// One CC5Request to the bank's `/fim/api` and its CC5Response (est.md 1.5-1.7). Anything but a
// readable answer within `timeoutMs` (a timeout, a refused connection, HTTP 5xx, HTML, garbage or
// truncated XML) is `null`: an unknown outcome the caller resolves by asking the order's status,
// never by sending the request again.

export type EstAnswer = Readonly<Record<string, XmlValue>>;

/** A CC5Response is a few hundred bytes; anything past this is not one (and is not buffered). */
export const MAX_ANSWER_BYTES = 64 * 1024;

async function readAnswer(response: Response): Promise<Uint8Array | null> {
  if (Number(response.headers.get("content-length") ?? "0") > MAX_ANSWER_BYTES) {
    await response.body?.cancel();
    return null;
  }
  return readCapped(response.body, MAX_ANSWER_BYTES);
}

export interface EstTransport {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
}

export async function callEst(config: EstConfig, transport: EstTransport, fields: XmlRecord): Promise<EstAnswer | null> {
  const body = writeXml("CC5Request", { Name: config.apiUser, Password: config.apiPassword, ClientId: config.clientId, ...fields });
  try {
    const response = await transport.fetch(config.apiUrl, {
      method: "POST",
      headers: { "Content-Type": "text/xml; charset=ISO-8859-9" },
      body: body as unknown as BodyInit,
      signal: AbortSignal.timeout(config.timeoutMs),
      redirect: "error",
    });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    const bytes = await readAnswer(response);
    return bytes === null ? null : readXml(bytes, "CC5Response");
  } catch {
    return null;
  }
}

export const text = (answer: EstAnswer, name: string): string | null => {
  const value = answer[name];
  return typeof value === "string" ? value : null;
};

export const extra = (answer: EstAnswer, name: string): string | undefined => {
  const e = answer.Extra;
  return typeof e === "object" ? e[name] : undefined;
};

/** What an error message of an answer says, for the refund record and the log (no secrets in it). */
export const errMsgOf = (answer: EstAnswer): string | null => {
  const msg = text(answer, "ErrMsg");
  const code = extra(answer, "ERRORCODE");
  if (msg && code) return `${code}: ${msg}`;
  return msg || code || null;
};
