import * as v from "valibot";
import { invariant } from "../invariant";

// The fields every bank's seed object is made of (docs/banks.md, "Seed file"), one definition each:
// URLs absolute https, or http on a loopback host (the sandbox's own simulators); credentials
// printable ASCII without spaces, as they are signed and posted verbatim; digit strings; the
// adapter's timeout. Every message names the rule, never the value: some fields are secrets.

const LOOPBACK_HOSTS = new Set(["localhost", "[::1]"]);
const isLoopbackHost = (host: string): boolean => LOOPBACK_HOSTS.has(host) || /^127(\.\d{1,3}){3}$/.test(host);

function isBankUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.username || url.password || url.hash) return false;
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
}

export const bankUrl = v.pipe(
  v.string("must be a string"),
  v.maxLength(2000, "must be at most 2000 characters"),
  v.check(isBankUrl, "must be an absolute https URL (http only on a loopback host)"),
);

export const token = (max: number) =>
  v.pipe(
    v.string("must be a string"),
    v.minLength(1, "must not be empty"),
    v.maxLength(max, `must be at most ${max} characters`),
    v.check((s) => /^[\x21-\x7e]+$/.test(s), "must be printable ASCII without spaces"),
  );

export const digits = (max: number) =>
  v.pipe(
    v.string("must be a string"),
    v.check((s) => new RegExp(`^[0-9]{1,${max}}$`).test(s), `must be 1 to ${max} digits`),
  );

/** How long an adapter waits for its bank's answer before the outcome is unknown. */
export const timeoutMs = v.nullish(
  v.pipe(
    v.number("must be a number"),
    v.integer("must be an integer"),
    v.minValue(100, "must be at least 100"),
    v.maxValue(120_000, "must be at most 120000"),
  ),
);

/** A connection's stored settings; the seed checked them, so a failure here is a corrupt row. */
export function parseStoredSettings<S extends v.GenericSchema>(
  bank: string,
  connectionId: string,
  json: string | null,
  schema: S,
): v.InferOutput<S> {
  invariant(json !== null, `connection ${connectionId}: bank "${bank}" without its ${bank} settings`);
  const parsed = v.safeParse(schema, JSON.parse(json));
  invariant(parsed.success, `connection ${connectionId}: stored ${bank} settings are invalid`);
  return parsed.output;
}
