import { readCapped } from "../../bytes";
import type { GarantiConfig } from "./config";
import { type RequestInput, requestTree } from "./requests";
import { readXml, writeXml, type XmlNode } from "./xml";

// One GVPSRequest to the bank's `VPServlet` and its answer. Anything but a readable answer within
// `timeoutMs` (a timeout, a refused connection, HTTP other than 200, HTML, garbage or truncated
// XML) is null: an unknown outcome the caller resolves by asking about the order, never by sending
// the request again.

/** A GVPSResponse is a few kilobytes; anything past this is not one (and is not buffered). */
export const MAX_ANSWER_BYTES = 64 * 1024;

export interface GarantiTransport {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
}

async function readAnswer(response: Response): Promise<Uint8Array | null> {
  if (Number(response.headers.get("content-length") ?? "0") > MAX_ANSWER_BYTES) {
    await response.body?.cancel();
    return null;
  }
  return readCapped(response.body, MAX_ANSWER_BYTES);
}

export async function callGaranti(config: GarantiConfig, transport: GarantiTransport, input: RequestInput): Promise<XmlNode | null> {
  const body = writeXml("GVPSRequest", requestTree(config, input));
  try {
    const response = await transport.fetch(config.apiUrl, {
      method: "POST",
      headers: { "Content-Type": "application/xml; charset=utf-8" },
      body: body as unknown as BodyInit,
      signal: AbortSignal.timeout(config.timeoutMs),
      redirect: "error",
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      return null;
    }
    const bytes = await readAnswer(response);
    return bytes === null ? null : readXml(bytes);
  } catch {
    return null;
  }
}
