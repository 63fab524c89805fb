import { defineCommand } from "citty";
import { LIST_SIZE_DEFAULT, LIST_SIZE_MAX } from "../src/limits";
import type { Store } from "../src/store/store";
import { commonArgs, output, table, withStore } from "./context";
import { optional, parseLimit } from "./flags";

export type ListFilter = { partnerId: string | null; status: string | null; limit: number };

/**
 * The operator `list` commands (payments, links, payouts) share one shape: optional --partner,
 * --status among the resource's states, --limit, then rows as JSON or as a table.
 */
export function defineListCommand<Row>(spec: {
  plural: string;
  order: string;
  example: string;
  statuses: readonly string[];
  query(store: Store, filter: ListFilter): Promise<Row[]>;
  toJson(row: Row): unknown;
  toTableRow(row: Row): Record<string, unknown>;
}) {
  return defineCommand({
    meta: { name: "list", description: `List ${spec.plural}, ${spec.order}.\n\nExample: ${spec.example}` },
    args: {
      partner: { type: "string", description: `only this partner's ${spec.plural}` },
      status: { type: "enum", options: [...spec.statuses], description: `only this status (${spec.statuses.join(", ")})` },
      limit: { type: "string", description: `at most this many (default ${LIST_SIZE_DEFAULT}, max ${LIST_SIZE_MAX})`, valueHint: "N" },
      ...commonArgs,
    },
    run: ({ args }) => {
      const filter = { partnerId: optional(args.partner), status: optional(args.status), limit: parseLimit(args.limit) };
      return withStore(args, async ({ store }) => {
        const rows = await spec.query(store, filter);
        output(args, rows.map(spec.toJson), () => table(rows.map(spec.toTableRow)));
      });
    },
  });
}
