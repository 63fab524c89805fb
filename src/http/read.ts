import * as v from "valibot";
import { fail } from "../errors";
import { findTextProblem } from "../domain/checks/text-input";
import { describeIssue } from "../domain/checks/valibot-issue";
import { readCapped } from "../bytes";
import { MAX_BODY_BYTES } from "../limits";

/** Reads at most MAX_BODY_BYTES (docs/contract.md, Requests and authentication: else 413), without buffering an oversized body. */
export async function readLimitedBytes(req: Request): Promise<Uint8Array> {
  const length = req.headers.get("content-length");
  const declared = Number(length ?? "0");
  if (declared > MAX_BODY_BYTES) fail("request_too_large");
  // A valid Content-Length without chunked framing is all the server hands over, and it is
  // already bounded above, so one native read is safe. Reading the stream chunk by chunk costs
  // about 10 µs more per request on Bun (issue 11); it stays for bodies of undeclared size.
  if (length !== null && Number.isSafeInteger(declared) && declared >= 0 && !req.headers.has("transfer-encoding")) {
    return new Uint8Array(await req.arrayBuffer());
  }
  const bytes = await readCapped(req.body, MAX_BODY_BYTES);
  if (bytes === null) fail("request_too_large");
  return bytes;
}

export const readLimitedText = async (req: Request): Promise<string> =>
  new TextDecoder("utf-8", { fatal: false }).decode(await readLimitedBytes(req));

/** JSON-only bodies (docs/contract.md, Requests and authentication): wrong content type, empty or malformed JSON are 400. */
export async function readJsonBody(req: Request): Promise<unknown> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") fail("validation_error", "body: Content-Type must be application/json");
  const text = await readLimitedText(req);
  if (text.trim() === "") fail("validation_error", "body: a JSON object is required");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fail("validation_error", "body: malformed JSON");
  }
}

/** Form bodies of the browser-facing pages (handoff, link pages). */
export async function readFormBody(req: Request): Promise<Record<string, string>> {
  return (await readFormBodyBytes(req)).form;
}

/** A form body parsed, and its raw bytes: a bank's callback is signed over those (docs/banks.md). */
export async function readFormBodyBytes(req: Request): Promise<{ form: Record<string, string>; raw: Uint8Array }> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") fail("validation_error", "body: a form post is required");
  const raw = await readLimitedBytes(req);
  const params = new URLSearchParams(new TextDecoder("utf-8", { fatal: false }).decode(raw));
  const form: Record<string, string> = {};
  for (const [k, value] of params) form[k] = value;
  return { form, raw };
}

/** Runs a valibot schema; the first issue becomes `path: message` (docs/contract.md, Requests and authentication). */
export function parseWith<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  fail("validation_error", describeIssue(result.issues[0]));
}

/**
 * The text rules every body meets before its shape is checked (no control characters, no lone
 * surrogates; docs/contract.md): the API's JSON and the panel's forms, mapped to the API's fields.
 */
export function checkedText<T>(body: T): T {
  const problem = findTextProblem(body);
  return problem === null ? body : fail("validation_error", problem);
}
