import {
  BUDGET_NAMES,
  BUDGETS,
  type BudgetLimit,
  type BudgetName,
  defaultLimits,
  isBudgetName,
  MAX_BUDGET_LIMIT,
  sandboxDefaultLimits,
  toWindowLabel,
} from "./budgets";

/**
 * `kasa serve --limits FILE` (docs/contract.md, Rate limits): a JSON object of budget name -> limit per that
 * budget's own window, overriding the defaults it names. `--limits off` arrives here as the `off`
 * flag, because "off" is a mode, not a file; it is refused outside sandbox mode so a production
 * server can never run unlimited by a typo. Every refusal is one line the CLI prints as is.
 */

export type ResolvedLimits = Record<BudgetName, BudgetLimit> | "off";

export type LimitsResult = { readonly ok: true; readonly limits: ResolvedLimits } | { readonly ok: false; readonly message: string };

export type LimitsMode = { readonly off: boolean; readonly sandbox: boolean };

const refuse = (message: string): LimitsResult => ({ ok: false, message });

const VALID_NAMES = `valid names: ${BUDGET_NAMES.join(", ")}`;

const parseJson = (fileText: string): { value: unknown } | { error: string } => {
  try {
    return { value: JSON.parse(fileText) as unknown };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
};

const toShortJson = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text === undefined ? typeof value : text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

/** Applies a parsed file over the defaults; the first bad entry refuses the whole file. */
const applyOverrides = (value: unknown, defaults: Record<BudgetName, BudgetLimit>): LimitsResult => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return refuse(`limits file: must be a JSON object of budget name -> limit; ${VALID_NAMES}`);
  }
  const limits = defaults;
  for (const [name, limit] of Object.entries(value)) {
    if (!isBudgetName(name)) {
      return refuse(`limits file: unknown budget "${name}"; ${VALID_NAMES}`);
    }
    if (!(typeof limit === "number" && Number.isInteger(limit) && limit >= 1)) {
      return refuse(`limits file: "${name}" must be a positive integer, got ${toShortJson(limit)}`);
    }
    if (limit > MAX_BUDGET_LIMIT) {
      return refuse(`limits file: "${name}" must be at most ${MAX_BUDGET_LIMIT}, got ${limit}`);
    }
    limits[name] = limit;
  }
  return { ok: true, limits };
};

/**
 * The limits a server starts with: the defaults, a file's overrides, or "off" in sandbox mode.
 * `fileText` is the file's content (undefined when no file was given); reading it is the CLI's job.
 */
export const resolveLimits = (fileText: string | undefined, mode: LimitsMode): LimitsResult => {
  if (mode.off) {
    if (!mode.sandbox) return refuse("--limits off is refused outside sandbox mode");
    if (fileText !== undefined) return refuse("--limits takes either a file or off, not both");
    return { ok: true, limits: "off" };
  }
  const defaults = mode.sandbox ? sandboxDefaultLimits() : defaultLimits();
  if (fileText === undefined) return { ok: true, limits: defaults };
  const parsed = parseJson(fileText);
  if ("error" in parsed) return refuse(`limits file: not valid JSON (${parsed.error})`);
  return applyOverrides(parsed.value, defaults);
};

/**
 * The budget table for `kasa serve --help`, one line per budget: name, default, window, and what
 * it covers, so an operator can write a limits file without opening the docs.
 */
export const limitsHelpText = (): string => {
  const width = Math.max(...BUDGET_NAMES.map((name) => name.length));
  return BUDGET_NAMES.map((name) => {
    const budget = BUDGETS[name];
    const limit = `${budget.limit} per ${toWindowLabel(budget.windowMs)}`;
    return `${name.padEnd(width)}  ${limit.padEnd(15)}  ${budget.covers}`;
  }).join("\n");
};
