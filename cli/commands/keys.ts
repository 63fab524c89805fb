import { defineCommand } from "citty";
import { issueApiKey, revokeApiKey } from "../../src/domain/partners/keys";
import { toIso } from "../../src/iso-time";
import { commonArgs, output, requireArg, table, withStore } from "../context";
import type { ApiKeyRow } from "../../src/store/rows";

// `kasa keys`: src/domain/partners/keys.ts holds the rules (a panel admin issues and revokes
// through it too); these commands read flags, call, print.

const toKeyJson = (k: ApiKeyRow) => ({
  id: k.id,
  partnerId: k.partnerId,
  hint: k.keyHint,
  createdAt: toIso(k.createdAtMs),
  revokedAt: k.revokedAtMs === null ? null : toIso(k.revokedAtMs),
});

const issue = defineCommand({
  meta: {
    name: "issue",
    description: "Issue a new API key for a partner; the key is shown once.\n\nExample: kasa keys issue --partner ptn_demo",
  },
  args: { partner: { type: "string", description: "partner id", required: true }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, async ({ store, clock, ids }) => {
      const partnerId = requireArg(args.partner, "partner");
      const { row, key } = await issueApiKey({ store, clock, ids }, partnerId);
      output(
        args,
        { ...toKeyJson(row), key: key.reveal() },
        () => `API key for ${partnerId} (shown once, store it now):\n${key.reveal()}\nid: ${row.id}`,
      );
    }),
});

const list = defineCommand({
  meta: {
    name: "list",
    description: "List API keys (hints only; keys are stored as SHA-256).\n\nExample: kasa keys list --partner ptn_demo",
  },
  args: { partner: { type: "string", description: "only this partner's keys" }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, async ({ store }) => {
      const keys = (await store.q.apiKeys.list(args.partner ?? null)).map(toKeyJson);
      output(args, keys, () => table(keys));
    }),
});

const revoke = defineCommand({
  meta: { name: "revoke", description: "Revoke an API key; its next request is 401.\n\nExample: kasa keys revoke key_0123456789abcdef" },
  args: { id: { type: "positional", description: "key id", required: true }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, async (ctx) => {
      const after = await revokeApiKey(ctx, null, args.id);
      output(args, toKeyJson(after), () => `revoked ${args.id}`);
    }),
});

export const keysCommand = defineCommand({
  meta: { name: "keys", description: "Manage API keys.\n\nExample: kasa keys issue --partner ptn_demo" },
  subCommands: { issue, list, revoke },
});
