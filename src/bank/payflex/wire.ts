import { readCapped } from "../../bytes";

// One POST to a PayFlex endpoint (docs/banks-payflex.md, "The wire"): urlencoded fields, the VPOS
// and Search XML as the one field `prmstr`. Anything but a 2xx body within `timeoutMs` (a
// timeout, a refused connection, HTTP 5xx, an answer past its cap) is `null`: for a provision an
// unknown outcome, resolved by the Search query and never by sending again.

export interface PayflexTransport {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
}

/** Every PayFlex answer is a few kilobytes; anything past this is not one (and is not buffered). */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** `application/x-www-form-urlencoded` as PHP's http_build_query writes it (spaces as `+`). */
export const encodeForm = (fields: ReadonlyArray<readonly [string, string]>): string =>
  fields.map(([name, value]) => `${formEscape(name)}=${formEscape(value)}`).join("&");

const formEscape = (s: string): string =>
  encodeURIComponent(s)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");

/** The `prmstr` body of a VPOS or Search call. */
export const prmstrBody = (xml: string): string => encodeForm([["prmstr", xml]]);

export async function postForm(url: string, body: string, timeoutMs: number, transport: PayflexTransport): Promise<string | null> {
  try {
    const response = await transport.fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded; charset=utf-8" },
      body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "error",
    });
    if (!response.ok || Number(response.headers.get("content-length") ?? "0") > MAX_ANSWER_BYTES) {
      await response.body?.cancel();
      return null;
    }
    const bytes = await readCapped(response.body, MAX_ANSWER_BYTES);
    return bytes === null ? null : new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
