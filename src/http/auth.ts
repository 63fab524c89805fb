import { createHash, timingSafeEqual } from "node:crypto";
import type { Deps } from "../deps";
import { fail } from "../errors";
import type { ApiKeyRow, PartnerRow } from "../store/rows";

const BEARER = /^Bearer ([A-Za-z0-9_-]{1,200})$/;

export type Caller = { partner: PartnerRow; key: ApiKeyRow };

/**
 * 401 for a missing, malformed, unknown or revoked key (docs/contract.md, Requests and authentication). Keys are looked up by their
 * SHA-256 and the stored hash is compared in constant time, so neither the lookup nor the
 * comparison reveals anything about valid keys.
 */
export async function authenticate(deps: Deps, authorization: string | null): Promise<Caller> {
  const match = authorization === null ? null : BEARER.exec(authorization.trim());
  if (!match) fail("unauthorized");
  const digest = createHash("sha256").update(match[1]!).digest();
  const key = await deps.store.q.apiKeys.byHash(digest.toString("hex"));
  if (!key || !timingSafeEqual(Buffer.from(key.keyHash, "hex"), digest) || key.revokedAtMs !== null) fail("unauthorized");
  const partner = await deps.store.q.partners.get(key.partnerId);
  if (!partner) fail("unauthorized");
  return { partner, key };
}
