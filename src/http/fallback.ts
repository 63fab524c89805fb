import type { Deps } from "../deps";
import { ApiError, fail, isApiError, type ErrorCode } from "../errors";
import { MAX_HEADER_BYTES, MAX_HEADER_FIELDS } from "../limits";
import { errorResponse } from "./envelope";
import { toWebResponse } from "./pages/handoff";
import { errorPage } from "../html";

// Answers the HTTP layer itself produces (issue 14, docs/decisions.md, Hardening): a path no route has, a method a
// path does not take, a path h3 cannot decode (bad percent-encoding, invalid UTF-8), an error h3
// raises before a handler runs. Each is kasa's own answer, never h3's or Bun's default body:
// the JSON envelope on the API families (`/v1`, `/sandbox`), an HTML page with the code and trace
// id everywhere else (the buyer pages, and any other path a browser may open), always with
// `X-Trace-Id` and the headers of its kind.

const API_PATH = /^\/(v1|sandbox)(\/|$)/;

/** What a buyer reads on the page of each code the HTTP layer can answer with (Turkish, like every page). */
const PAGE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  not_found: "Aradığınız sayfa bulunamadı.",
  method_not_allowed: "Bu sayfa bu şekilde açılamaz.",
  validation_error: "Sayfa adresi geçersiz.",
  request_too_large: "İstek çok büyük.",
  internal_error: "Beklenmeyen bir hata oluştu. Lütfen daha sonra yeniden deneyin.",
};

/** The API paths answer JSON; `rawPath` is the request's path as sent (it may not decode). */
export const isApiPath = (rawPath: string): boolean => API_PATH.test(rawPath);

export function fallbackResponse(deps: Deps, rawPath: string, code: ErrorCode, message?: string): Response {
  const traceId = deps.ids.traceId();
  const error = new ApiError(code, message);
  if (isApiPath(rawPath)) return errorResponse(error, traceId);
  const page = errorPage({
    code,
    message: PAGE_MESSAGES[code] ?? PAGE_MESSAGES.internal_error!,
    traceId,
    nonce: deps.ids.nonce(),
    status: error.status,
  });
  const res = toWebResponse(page);
  res.headers.set("x-trace-id", traceId);
  return res;
}

/** Issue 14: headers past kasa's own limits are refused before routing, in kasa's envelope or page. */
export function checkHeaderSize(req: Request): void {
  let bytes = req.method.length + req.url.length + 11;
  let fields = 0;
  // forEach, not for-of: no iterator and no [name, value] array per header on every request.
  req.headers.forEach((value, name) => {
    bytes += name.length + value.length + 4;
    fields += 1;
  });
  if (bytes > MAX_HEADER_BYTES || fields > MAX_HEADER_FIELDS) {
    fail("request_too_large", `headers: at most ${MAX_HEADER_BYTES} bytes in ${MAX_HEADER_FIELDS} fields`);
  }
}

/** The code of an error raised before any kasa handler ran: kasa's own, or h3's HTTPError by status. */
export function codeOfHttpError(error: unknown): { code: ErrorCode; message?: string } {
  if (isApiError(error)) return { code: error.code, message: error.message };
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 400) return { code: "validation_error", message: "path: malformed percent-encoding or invalid UTF-8" };
  if (status === 404) return { code: "not_found" };
  if (status === 405) return { code: "method_not_allowed" };
  if (status === 413 || status === 431) return { code: "request_too_large" };
  return { code: "internal_error" };
}

/** The raw path of a request URL without decoding it (the decoding may be what failed). */
export function rawPathOf(url: string): string {
  const afterHost = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "");
  const end = afterHost.search(/[?#]/);
  return (end === -1 ? afterHost : afterHost.slice(0, end)) || "/";
}
