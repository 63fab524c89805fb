import { readCapped } from "../../bytes";
import type { PosnetConfig } from "./config";
import { readXml, writeXml, type XmlFields, type XmlNode } from "./xml";

// One posnetRequest to the bank's `PosnetWebService/XML` and its posnetResponse
// (docs/banks-posnet.md, "Transport"). The body is `xmldata=` and the ISO-8859-9 XML,
// percent-encoded byte by byte (a raw `+` of a base64 MAC would turn into a space under form
// decoding). Anything but a readable answer within `timeoutMs` (a timeout, a refused connection,
// HTTP 5xx, HTML, garbage or truncated XML) is `null`: an unknown outcome.

export interface PosnetTransport {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
}

/** A posnetResponse is a few hundred bytes; anything past this is not one (and is not buffered). */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** Each byte percent-encoded unless unreserved, as a browser encodes a form. */
export function percentEncode(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) {
    const ch = String.fromCharCode(b);
    s += /[A-Za-z0-9*\-._]/.test(ch) ? ch : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return s;
}

/** The request body for `operation` (the `mid`, `tid` and optional `tranDateRequired` lead). */
export function requestBody(config: Pick<PosnetConfig, "merchantId" | "terminalId">, fields: XmlFields): string {
  const xml = writeXml("posnetRequest", { mid: config.merchantId, tid: config.terminalId, ...fields });
  return `xmldata=${percentEncode(xml)}`;
}

async function readAnswer(response: Response): Promise<Uint8Array | null> {
  if (Number(response.headers.get("content-length") ?? "0") > MAX_ANSWER_BYTES) {
    await response.body?.cancel();
    return null;
  }
  return readCapped(response.body, MAX_ANSWER_BYTES);
}

export async function callPosnet(config: PosnetConfig, transport: PosnetTransport, fields: XmlFields): Promise<XmlNode | null> {
  try {
    const response = await transport.fetch(config.apiUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded; charset=ISO-8859-9" },
      body: requestBody(config, fields),
      signal: AbortSignal.timeout(config.timeoutMs),
      redirect: "error",
    });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    const bytes = await readAnswer(response);
    return bytes === null ? null : readXml(bytes, "posnetResponse");
  } catch {
    return null;
  }
}
