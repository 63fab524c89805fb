import { describe, expect, it } from "vitest";
import { BUDGET_NAMES, BUDGETS, defaultLimits, MAX_BUDGET_LIMIT, MULTIPLIED_BUDGETS } from "../../../src/domain/rate-limits/budgets";
import { limitsHelpText, resolveLimits } from "../../../src/domain/rate-limits/limits-file";

const SERVE = { off: false, sandbox: false };
const SANDBOX = { off: false, sandbox: true };

describe("product 12: the budget table", () => {
  it("has the budgets with the defaults and windows of the table (product 23 adds pages.ip, product 18 the panel login)", () => {
    const table = Object.fromEntries(BUDGET_NAMES.map((name) => [name, [BUDGETS[name].limit, BUDGETS[name].windowMs / 60_000]]));
    expect(table).toEqual({
      "gate.ip": [240, 1],
      "gate.platform": [600, 1],
      "payments.create.key": [60, 1],
      "payments.create.ip": [30, 1],
      "payments.create.ip.hourly": [1800, 60],
      "links.write.key": [30, 1],
      "links.read.key": [120, 1],
      "links.ip": [120, 1],
      "installments.partner": [120, 1],
      "reads.key": [300, 1],
      "pages.ip": [600, 1],
      "panel.login.ip": [10, 1],
      "panel.user": [120, 1],
    });
  });

  it("rateLimitMultiplier scales exactly the payments.create.* budgets", () => {
    expect([...MULTIPLIED_BUDGETS].sort()).toEqual(["payments.create.ip", "payments.create.ip.hourly", "payments.create.key"]);
  });
});

describe("product 12: kasa serve --limits FILE", () => {
  it("no file: the defaults", () => {
    expect(resolveLimits(undefined, SERVE)).toEqual({ ok: true, limits: defaultLimits() });
  });

  it("a file overrides the budgets it names and keeps the rest", () => {
    const result = resolveLimits('{"gate.platform": 100000, "gate.ip": 5000}', SERVE);
    expect(result).toEqual({
      ok: true,
      limits: { ...defaultLimits(), "gate.platform": 100_000, "gate.ip": 5000 },
    });
  });

  it("an empty object is the defaults", () => {
    expect(resolveLimits("{}", SERVE)).toEqual({ ok: true, limits: defaultLimits() });
  });

  it("an unknown name is refused, listing every valid name", () => {
    const result = resolveLimits('{"gate.ip": 10, "payments.create": 5}', SERVE);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toContain('"payments.create"');
    for (const name of BUDGET_NAMES) expect(result.message).toContain(name);
  });

  it("an inherited-looking name is still unknown", () => {
    expect(resolveLimits('{"toString": 5}', SERVE).ok).toBe(false);
    expect(resolveLimits('{"__proto__": 5}', SERVE).ok).toBe(false);
  });

  it.each([
    ["0", "0"],
    ["-5", "-5"],
    ["1.5", "1.5"],
    ['"60"', '"60"'],
    ["null", "null"],
    ["true", "true"],
    ["[60]", "[60]"],
    [String(MAX_BUDGET_LIMIT + 1), "at most"],
  ])("a limit of %s is refused, naming the budget", (value, shown) => {
    const result = resolveLimits(`{"links.ip": ${value}}`, SERVE);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toContain('"links.ip"');
    expect(result.message).toContain(shown);
  });

  it.each(["not json", "[]", "null", "42", '"off"', ""])("a file of %j is refused with one line", (text) => {
    const result = resolveLimits(text, SERVE);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toMatch(/^limits file: /);
    expect(result.message).not.toContain("\n");
  });
});

describe("product 12: --limits off", () => {
  it("is refused outside sandbox mode", () => {
    const result = resolveLimits(undefined, { off: true, sandbox: false });
    expect(result).toEqual({ ok: false, message: "--limits off is refused outside sandbox mode" });
  });

  it("turns every budget off in sandbox mode", () => {
    expect(resolveLimits(undefined, { off: true, sandbox: true })).toEqual({ ok: true, limits: "off" });
  });

  it("cannot be combined with a file", () => {
    expect(resolveLimits("{}", { off: true, sandbox: true }).ok).toBe(false);
  });

  // Product 23 changed this rule: a sandbox's defaults have pages.ip off (one integrator, one address).
  it("a sandbox without off still gets the defaults (product 23: pages.ip off) or its file", () => {
    expect(resolveLimits(undefined, SANDBOX)).toEqual({ ok: true, limits: { ...defaultLimits(), "pages.ip": "off" } });
    expect(resolveLimits('{"pages.ip": 50}', SANDBOX)).toEqual({ ok: true, limits: { ...defaultLimits(), "pages.ip": 50 } });
  });

  it("product 23 / issue 15 item 1: serve has pages.ip at 600 per minute by default; a file may change it", () => {
    expect(resolveLimits(undefined, SERVE)).toMatchObject({ ok: true, limits: { "pages.ip": 600 } });
    expect(resolveLimits('{"pages.ip": 6000}', SERVE)).toMatchObject({ ok: true, limits: { "pages.ip": 6000 } });
    expect(limitsHelpText()).toMatch(/^pages\.ip\s+600 per 1 min\s+buyer-facing pages/m);
  });
});

describe("product 12: kasa serve --help lists the budgets", () => {
  it("one line per budget with its name, default and window", () => {
    const lines = limitsHelpText().split("\n");
    expect(lines).toHaveLength(BUDGET_NAMES.length);
    expect(lines[0]).toMatch(/^gate\.ip\s+240 per 1 min\s+\S/);
    expect(lines.find((line) => line.startsWith("payments.create.ip.hourly"))).toMatch(/1800 per 1 h/);
    BUDGET_NAMES.forEach((name, i) => {
      expect(lines[i]).toMatch(new RegExp(`^${name.replaceAll(".", "\\.")}\\s+${BUDGETS[name].limit} per `));
    });
  });
});
