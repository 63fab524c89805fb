import type { Clock } from "../../clock";
import { fail } from "../../errors";
import { hashApiKey, type Ids } from "../../ids";
import type { Sensitive } from "../../sensitive";
import type { Store } from "../../store/store";
import { keyHint } from "./seed";
import type { ApiKeyRow } from "../../store/rows";

// API keys (docs/contract.md, Identifiers and formats; docs/operating.md, The operator CLI; docs/panel.md): issued and revoked by the operator CLI and by a panel admin
// through these two functions. A key is shown once and stored only as its SHA-256.

export type KeyDeps = { store: Store; clock: Clock; ids: Ids };

export async function issueApiKey(deps: KeyDeps, partnerId: string): Promise<{ row: ApiKeyRow; key: Sensitive<string> }> {
  if (!(await deps.store.q.partners.get(partnerId))) fail("not_found", `unknown partner ${partnerId}`);
  const key = deps.ids.apiKey();
  const row: ApiKeyRow = {
    id: deps.ids.keyId(),
    partnerId,
    keyHash: hashApiKey(key),
    keyHint: keyHint(key.reveal()),
    createdAtMs: deps.clock.nowMs(),
    revokedAtMs: null,
  };
  await deps.store.write((tx) => tx.apiKeys.insert(row));
  return { row, key };
}

/** `partnerId` scopes the key (the panel: another partner's key is 404); null is the operator. */
export async function revokeApiKey(deps: KeyDeps, partnerId: string | null, keyId: string): Promise<ApiKeyRow> {
  const key = await deps.store.q.apiKeys.get(keyId);
  if (!key || (partnerId !== null && key.partnerId !== partnerId)) fail("not_found", `unknown key ${keyId}`);
  await deps.store.write((tx) => tx.apiKeys.revoke(keyId, deps.clock.nowMs()));
  const after = await deps.store.q.apiKeys.get(keyId);
  if (!after) fail("not_found", `unknown key ${keyId}`);
  return after;
}
