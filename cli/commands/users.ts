import { defineCommand } from "citty";
import { toIso } from "../../src/iso-time";
import { addUser, resetPassword, setUserStatus } from "../../src/domain/users/service";
import { Sensitive } from "../../src/sensitive";
import { type CliContext, commonArgs, output, requireArg, table, withStore } from "../context";
import { lockedUntilMs } from "../../src/domain/users/login-guard";
import type { PanelUserRow } from "../../src/store/rows";

// docs/panel.md: merchant panel users. Thin: the rules live in src/domain/users/service.ts, which the
// panel's users page calls too. A password is printed once and stored only as its hash.

/** `lockedUntil`: when the last locked (address, source) pair of the account unlocks, or null. */
async function toUserJson(ctx: Pick<CliContext, "store" | "clock">, u: PanelUserRow) {
  const locked = await lockedUntilMs(ctx.store.q, u.email, ctx.clock.nowMs());
  return {
    id: u.id,
    partnerId: u.partnerId,
    email: u.email,
    role: u.role,
    status: u.status,
    lockedUntil: locked === null ? null : toIso(locked),
    createdAt: toIso(u.createdAtMs),
  };
}

/** `--password-stdin`: the first line of stdin, so a password never shows in `ps` or shell history. */
async function readPasswordStdin(): Promise<Sensitive<string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return new Sensitive(Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? "");
}

const passwordArg = {
  "password-stdin": { type: "boolean", description: "read the password from stdin instead of generating a one-time one" },
} as const;

const add = defineCommand({
  meta: {
    name: "add",
    description:
      "Add a panel user; prints a one-time password unless --password-stdin.\n\nExample: kasa users add --partner ptn_demo --email ali@example.com --role staff",
  },
  args: {
    partner: { type: "string", description: "partner id", required: true },
    email: { type: "string", description: "login e-mail address", required: true },
    role: { type: "string", description: "viewer | staff | admin", required: true },
    ...passwordArg,
    ...commonArgs,
  },
  run: async ({ args }) => {
    const given = args["password-stdin"] ? await readPasswordStdin() : undefined;
    await withStore(args, async (ctx) => {
      const r = await addUser(ctx, {
        partnerId: requireArg(args.partner, "partner"),
        email: requireArg(args.email, "email"),
        role: requireArg(args.role, "role"),
        password: given,
      });
      const shown = given === undefined ? { password: r.password.reveal() } : {};
      output(args, { ...(await toUserJson(ctx, r.user)), ...shown }, () =>
        given === undefined
          ? `user ${r.user.email} (${r.user.role}) added; one-time password (shown once):\n${r.password.reveal()}`
          : `user ${r.user.email} (${r.user.role}) added`,
      );
    });
  },
});

const list = defineCommand({
  meta: { name: "list", description: "List panel users.\n\nExample: kasa users list --partner ptn_demo" },
  args: { partner: { type: "string", description: "only this partner's users" }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, async (ctx) => {
      const rows = await ctx.store.q.panelUsers.list(args.partner ?? null);
      const users = await Promise.all(rows.map((u) => toUserJson(ctx, u)));
      output(args, users, () => table(users));
    }),
});

const statusCommand = (status: PanelUserRow["status"], description: string) =>
  defineCommand({
    meta: { name: status === "active" ? "enable" : "disable", description },
    args: { user: { type: "positional", description: "user id or e-mail", required: true }, ...commonArgs },
    run: ({ args }) =>
      withStore(args, async (ctx) => {
        const user = await setUserStatus(ctx, null, args.user, status);
        output(args, await toUserJson(ctx, user), () => `${user.email} is ${user.status}`);
      }),
  });

const resetPasswordCommand = defineCommand({
  meta: {
    name: "reset-password",
    description:
      "Set a new password (one-time unless --password-stdin); ends the user's sessions and lifts a lock.\n\nExample: kasa users reset-password ali@example.com",
  },
  args: { user: { type: "positional", description: "user id or e-mail", required: true }, ...passwordArg, ...commonArgs },
  run: async ({ args }) => {
    const given = args["password-stdin"] ? await readPasswordStdin() : undefined;
    await withStore(args, async (ctx) => {
      const r = await resetPassword(ctx, null, args.user, given);
      const shown = given === undefined ? { password: r.password.reveal() } : {};
      output(args, { ...(await toUserJson(ctx, r.user)), ...shown }, () =>
        given === undefined
          ? `new one-time password for ${r.user.email} (shown once):\n${r.password.reveal()}`
          : `password of ${r.user.email} changed`,
      );
    });
  },
});

export const usersCommand = defineCommand({
  meta: {
    name: "users",
    description: "Manage merchant panel users.\n\nExample: kasa users add --partner ptn_demo --email ali@example.com --role staff",
  },
  subCommands: {
    add,
    list,
    disable: statusCommand("disabled", "Disable a panel user and end their sessions.\n\nExample: kasa users disable ali@example.com"),
    enable: statusCommand("active", "Enable a disabled panel user.\n\nExample: kasa users enable ali@example.com"),
    "reset-password": resetPasswordCommand,
  },
});
