import { ERROR_CATALOG, type ApiError } from "../errors";

// Every API answer is built here: JSON bodies, the error envelope, the headers all share.

const JSON_TYPE = "application/json; charset=utf-8";

export function jsonResponse(status: number, body: unknown, traceId: string, headers: Record<string, string> = {}): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { "content-type": JSON_TYPE, "cache-control": "no-store", "x-trace-id": traceId, ...headers },
  });
}

export function errorResponse(error: ApiError, traceId: string): Response {
  return jsonResponse(error.status, { error: { code: error.code, message: error.message, traceId } }, traceId, error.headers);
}

export function internalErrorResponse(traceId: string): Response {
  const [status, message] = ERROR_CATALOG.internal_error;
  return jsonResponse(status, { error: { code: "internal_error", message, traceId } }, traceId);
}
