/**
 * The rate budgets of docs/contract.md, Limits, with the names and the numbers docs/contract.md#rate-limits gives them.
 * Every limit here is a deployment default: `kasa serve --limits FILE` overrides it per name
 * (limits-file.ts), so the names are part of the operator contract and must stay stable.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** What a budget is counted per; the request pipeline picks the key accordingly. */
export type BudgetScope = "ip" | "platform" | "key" | "partner" | "user";

export type BudgetSpec = {
  readonly limit: number;
  readonly windowMs: number;
  readonly scope: BudgetScope;
  /** One line for `kasa serve --help`: which requests draw on this budget. */
  readonly covers: string;
  /** Off unless a limits file names it, in sandbox mode (docs/decisions.md, Hardening: one integrator, one address). */
  readonly offInSandbox?: true;
};

export const BUDGETS = {
  "gate.ip": {
    limit: 240,
    windowMs: MINUTE_MS,
    scope: "ip",
    covers: "all API-key /v1 endpoints, per source IP, before key lookup",
  },
  "gate.platform": {
    limit: 600,
    windowMs: MINUTE_MS,
    scope: "platform",
    covers: "all API-key /v1 endpoints, platform-wide, before key lookup",
  },
  "payments.create.key": {
    limit: 60,
    windowMs: MINUTE_MS,
    scope: "key",
    covers: "POST /v1/payments, per API key (scaled by rateLimitMultiplier)",
  },
  "payments.create.ip": {
    limit: 30,
    windowMs: MINUTE_MS,
    scope: "ip",
    covers: "POST /v1/payments, per source IP (scaled by rateLimitMultiplier)",
  },
  "payments.create.ip.hourly": {
    limit: 1800,
    windowMs: HOUR_MS,
    scope: "ip",
    covers: "POST /v1/payments, per source IP (scaled by rateLimitMultiplier)",
  },
  "links.write.key": {
    limit: 30,
    windowMs: MINUTE_MS,
    scope: "key",
    covers: "POST /v1/payment-links and DELETE /v1/payment-links/{id}, per API key",
  },
  "links.read.key": {
    limit: 120,
    windowMs: MINUTE_MS,
    scope: "key",
    covers: "GET /v1/payment-links and GET /v1/payment-links/{id}, per API key",
  },
  "links.ip": {
    limit: 120,
    windowMs: MINUTE_MS,
    scope: "ip",
    covers: "the four payment-link endpoints, per source IP",
  },
  "installments.partner": {
    limit: 120,
    windowMs: MINUTE_MS,
    scope: "partner",
    covers: "POST /v1/installment-options, per partner",
  },
  "reads.key": {
    limit: 300,
    windowMs: MINUTE_MS,
    scope: "key",
    covers: "payment lookups, refunds and payment-acceptance, per API key",
  },
  "pages.ip": {
    limit: 600,
    windowMs: MINUTE_MS,
    scope: "ip",
    covers: "buyer-facing pages (/l/..., /handoff, /sim-bank/...), per source IP; off in sandbox unless set",
    offInSandbox: true,
  },
  "panel.login.ip": {
    limit: 10,
    windowMs: MINUTE_MS,
    scope: "ip",
    covers: "POST /panel/login (merchant panel), per source IP",
  },
  "panel.user": {
    limit: 120,
    windowMs: MINUTE_MS,
    scope: "user",
    covers: "the merchant panel's actions (every POST but login), per panel user",
  },
} as const satisfies Record<string, BudgetSpec>;

export type BudgetName = keyof typeof BUDGETS;

/** In table order, which is also the order the help text and error messages list them. */
export const BUDGET_NAMES = Object.keys(BUDGETS) as readonly BudgetName[];

export const isBudgetName = (name: string): name is BudgetName => Object.hasOwn(BUDGETS, name);

/**
 * The budgets a partner's `rateLimitMultiplier` raises: docs/contract.md#limits lets the key and IP limits on
 * payment creation be raised together, and docs/contract.md#rate-limits names exactly the `payments.create.*` ones.
 */
export const MULTIPLIED_BUDGETS: ReadonlySet<BudgetName> = new Set(BUDGET_NAMES.filter((name) => name.startsWith("payments.create.")));

/**
 * The largest limit a limits file may set. Ring storage grows with admissions inside a window, so
 * this caps one budget's memory (8 bytes per admission); 10M a window is far above any benchmark.
 */
export const MAX_BUDGET_LIMIT = 10_000_000;

/** A budget's limit per its window, or "off": it admits everything (docs/decisions.md, Hardening: `pages.ip` in sandbox). */
export type BudgetLimit = number | "off";

export const defaultLimits = (): Record<BudgetName, number> => {
  const limits = {} as Record<BudgetName, number>;
  for (const name of BUDGET_NAMES) limits[name] = BUDGETS[name].limit;
  return limits;
};

/** The defaults of a sandbox: those of serve, with the budgets marked offInSandbox off. */
export const sandboxDefaultLimits = (): Record<BudgetName, BudgetLimit> => {
  const limits: Record<BudgetName, BudgetLimit> = defaultLimits();
  for (const name of BUDGET_NAMES) if ((BUDGETS[name] as BudgetSpec).offInSandbox) limits[name] = "off";
  return limits;
};

/**
 * The effective limit of one check. A multiplier only applies to MULTIPLIED_BUDGETS, so the
 * pipeline can pass a partner's multiplier on every check without knowing which ones it scales.
 * Fractional products round down, but never below 1 (a budget that admits nothing is a config
 * bug), and never above MAX_BUDGET_LIMIT, which bounds memory whatever a partner row says.
 */
export const effectiveLimit = (name: BudgetName, limit: number, multiplier = 1): number => {
  if (!MULTIPLIED_BUDGETS.has(name) || multiplier === 1) return limit;
  if (!(Number.isFinite(multiplier) && multiplier > 0)) {
    throw new RangeError(`rateLimitMultiplier must be a positive number, got ${multiplier}`);
  }
  return Math.min(MAX_BUDGET_LIMIT, Math.max(1, Math.floor(limit * multiplier)));
};

/** "1 min", "1 h": windows are whole minutes or hours, as the table in docs/contract.md#rate-limits prints them. */
export const toWindowLabel = (windowMs: number): string =>
  windowMs % HOUR_MS === 0 ? `${windowMs / HOUR_MS} h` : `${windowMs / MINUTE_MS} min`;
