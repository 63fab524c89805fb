import { defineCommand } from "citty";
import { acceptAgreement } from "../../src/domain/acceptance/accept";
import { addAgreement } from "../../src/domain/acceptance/agreements";
import { clearAdminHold, setAdminHold } from "../../src/domain/acceptance/holds";
import { acceptanceOf } from "../../src/domain/acceptance/service";
import { toAcceptanceJson } from "../../src/domain/acceptance/view";
import type { CliContext } from "../context";
import { CliError } from "../cli-error";
import { commonArgs, output, requireArg, withStore } from "../context";

// `kasa holds` and `kasa agreements`: the rules live in src/domain/acceptance/, which
// the panel's agreement page calls too; these commands read flags, call and print.

const partnerArg = { partner: { type: "string", description: "partner id", required: true } } as const;

async function printAcceptance(args: { json?: boolean }, ctx: CliContext, partnerId: string, what: string): Promise<void> {
  const partner = (await ctx.store.q.partners.get(partnerId))!;
  const now = ctx.clock.nowMs();
  const view = toAcceptanceJson(await acceptanceOf(ctx.store.q, partner, now), now);
  output(args, view, () => `${what}; ${partnerId} ${view.acceptingPayments ? "accepts" : "does not accept"} payments`);
}

export const holdsCommand = defineCommand({
  meta: { name: "holds", description: "Set or clear an admin hold.\n\nExample: kasa holds set --partner ptn_demo" },
  subCommands: {
    set: defineCommand({
      meta: {
        name: "set",
        description: "Set an admin_hold: new payments, links and refunds get 403.\n\nExample: kasa holds set --partner ptn_demo",
      },
      args: { ...partnerArg, ...commonArgs },
      run: ({ args }) =>
        withStore(args, async (ctx) => {
          const id = requireArg(args.partner, "partner");
          await setAdminHold(ctx, id);
          await printAcceptance(args, ctx, id, "admin_hold set");
        }),
    }),
    clear: defineCommand({
      meta: { name: "clear", description: "Clear the admin_hold.\n\nExample: kasa holds clear --partner ptn_demo" },
      args: { ...partnerArg, ...commonArgs },
      run: ({ args }) =>
        withStore(args, async (ctx) => {
          const id = requireArg(args.partner, "partner");
          await clearAdminHold(ctx, id);
          await printAcceptance(args, ctx, id, "admin_hold cleared");
        }),
    }),
  },
});

const add = defineCommand({
  meta: {
    name: "add",
    description:
      "Register an agreement the partner must accept.\n\nExample: kasa agreements add --partner ptn_demo --code DPA --name 'Data Processing' --version 2 --requirement consent --kind renewal --deadline 2026-12-31T21:00:00Z",
  },
  args: {
    ...partnerArg,
    code: { type: "string", required: true, description: "agreement code" },
    name: { type: "string", required: true, description: "agreement name" },
    version: { type: "string", required: true, description: "version" },
    requirement: { type: "enum", options: ["consent", "wet_signature"], default: "consent", description: "consent or wet_signature" },
    kind: { type: "enum", options: ["first", "renewal"], default: "renewal", description: "first or renewal" },
    deadline: { type: "string", description: "ISO 8601 deadline; payments stop after it until accepted" },
    ...commonArgs,
  },
  run: ({ args }) => {
    const id = requireArg(args.partner, "partner");
    const deadlineAtMs = args.deadline === undefined ? null : Date.parse(args.deadline);
    if (deadlineAtMs !== null && !Number.isFinite(deadlineAtMs)) throw new CliError(`--deadline: not a date-time: ${args.deadline}`, 2);
    return withStore(args, async (ctx) => {
      await addAgreement(ctx, id, {
        agreementCode: args.code,
        version: args.version,
        agreementName: args.name,
        requirement: args.requirement as "consent" | "wet_signature",
        kind: args.kind as "first" | "renewal",
        deadlineAtMs,
      });
      await printAcceptance(args, ctx, id, `agreement ${args.code} v${args.version} added`);
    });
  },
});

const accept = defineCommand({
  meta: {
    name: "accept",
    description:
      "Record that the partner accepted an agreement (every pending version of the code).\n\nExample: kasa agreements accept --partner ptn_demo --code DPA",
  },
  args: { ...partnerArg, code: { type: "string", required: true, description: "agreement code" }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, async (ctx) => {
      const id = requireArg(args.partner, "partner");
      await acceptAgreement(ctx, id, args.code);
      await printAcceptance(args, ctx, id, `agreement ${args.code} accepted`);
    }),
});

export const agreementsCommand = defineCommand({
  meta: {
    name: "agreements",
    description: "Manage partner agreements.\n\nExample: kasa agreements accept --partner ptn_demo --code DPA",
  },
  subCommands: { add, accept },
});
