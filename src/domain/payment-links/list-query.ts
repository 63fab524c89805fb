import { fail } from "../../errors";
import { LIST_HORIZON, LIST_SIZE_DEFAULT, LIST_SIZE_MAX, LIST_SIZE_MIN } from "../../limits";
import { DAY_MS, daysFromCivil, parseCivil } from "../checks/civil-date";
import { LINK_STATUSES, type LinkStatus } from "./machine";

// Query of `GET /v1/payment-links` (docs/contract.md, List links / Limits; docs/decisions.md, Readings of the contract). A query string is not a JSON
// body, so it is read by hand rather than by a valibot schema; every refusal is a 400
// validation_error naming the parameter. Parameters the endpoint does not know are ignored, as
// query strings usually carry tracking noise that must not break a partner's listing.

export type LinkListQuery = {
  statuses: LinkStatus[] | null;
  minAmount: number | null;
  maxAmount: number | null;
  createdFromMs: number | null;
  createdToMs: number | null;
  /** Applied (clamped) values; the response echoes them. */
  page: number;
  size: number;
};

const INTEGER = /^[+-]?[0-9]+$/;

/** The one value of a single-valued parameter; repeating it is refused rather than guessed at. */
function single(query: URLSearchParams, name: string): string | null {
  const values = query.getAll(name);
  if (values.length > 1) fail("validation_error", `${name}: must be given at most once`);
  return values[0] ?? null;
}

function integerParam(query: URLSearchParams, name: string): number | null {
  const raw = single(query, name);
  if (raw === null) return null;
  if (!INTEGER.test(raw)) fail("validation_error", `${name}: must be an integer`);
  return Number(raw);
}

function amountParam(query: URLSearchParams, name: string): number | null {
  const value = integerParam(query, name);
  if (value !== null && !Number.isSafeInteger(value)) fail("validation_error", `${name}: must be a safe integer`);
  return value;
}

function instantParam(query: URLSearchParams, name: string): number | null {
  const raw = single(query, name);
  if (raw === null) return null;
  const ms = parseIsoInstant(raw);
  if (ms === null) fail("validation_error", `${name}: must be an ISO 8601 date-time with a zone, e.g. 2026-11-20T09:00:00Z`);
  return ms;
}

function statusesParam(query: URLSearchParams): LinkStatus[] | null {
  const values = query.getAll("status");
  if (values.length === 0) return null;
  const known: readonly string[] = LINK_STATUSES;
  for (const value of values) {
    if (!known.includes(value)) fail("validation_error", `status: must be one of ${LINK_STATUSES.join(", ")}`);
  }
  return [...new Set(values)] as LinkStatus[];
}

/**
 * docs/contract.md, List links: `page` below 0 becomes 0 and `size` is clamped to 1..200, silently; the only
 * refusal is `page * size > 100000` on the applied values (docs/decisions.md, Readings of the contract). A value that is not an
 * integer at all ("abc", "2.5", "") is a 400: it is a malformed request, not an out-of-range one.
 */
export function parseLinkListQuery(query: URLSearchParams): LinkListQuery {
  const statuses = statusesParam(query);
  const minAmount = amountParam(query, "minAmount");
  const maxAmount = amountParam(query, "maxAmount");
  const createdFromMs = instantParam(query, "createdFrom");
  const createdToMs = instantParam(query, "createdTo");
  const page = Math.max(0, integerParam(query, "page") ?? 0);
  const size = Math.min(LIST_SIZE_MAX, Math.max(LIST_SIZE_MIN, integerParam(query, "size") ?? LIST_SIZE_DEFAULT));
  if (page * size > LIST_HORIZON) fail("validation_error", `page: page * size must be <= ${LIST_HORIZON}`);
  return { statuses, minAmount, maxAmount, createdFromMs, createdToMs, page, size };
}

/** docs/decisions.md, Readings of the contract: a full page says there is more, unless the next page would start past the horizon. */
export function hasMoreAfter(itemCount: number, page: number, size: number): boolean {
  return itemCount === size && (page + 1) * size <= LIST_HORIZON;
}

const ISO_INSTANT =
  /^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:[.,]([0-9]{1,9}))?)?(?:([Zz])|([+ -])([0-9]{2}):?([0-9]{2}))$/;

/**
 * Epoch ms of an ISO 8601 date-time that names its zone ("Z" or an offset), or null. A time
 * without a zone is refused: 4.2 asks for UTC and a local reading would be a guess. A " " where
 * the offset sign belongs is read as "+", because an unencoded "+" in a query string arrives as a
 * space. A sub-millisecond fraction rounds up: stored instants are whole ms, so `>= 10.5` and
 * `< 10.5` select exactly what `>= 11` and `< 11` do.
 */
export function parseIsoInstant(text: string): number | null {
  const m = ISO_INSTANT.exec(text);
  if (!m) return null;
  const [, date, hh, mi, ss = "0", frac = "", zulu, sign, oh = "0", om = "0"] = m;
  let days: number;
  try {
    days = daysFromCivil(parseCivil(date!));
  } catch {
    return null;
  }
  const [hour, minute, second] = [Number(hh), Number(mi), Number(ss)];
  const [offH, offM] = zulu ? [0, 0] : [Number(oh), Number(om)];
  if (hour > 23 || minute > 59 || second > 59 || offH > 23 || offM > 59) return null;
  const wholeMs = Number(frac.slice(0, 3).padEnd(3, "0"));
  const roundUp = /[1-9]/.test(frac.slice(3)) ? 1 : 0;
  const offsetMs = (sign === "-" ? -1 : 1) * (offH * 60 + offM) * 60_000;
  const ms = days * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 + wholeMs + roundUp - offsetMs;
  return Number.isSafeInteger(ms) ? ms : null;
}
