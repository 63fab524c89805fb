/**
 * The simulated bank's test cards and demo BIN table (docs/checkout.md). Shipped as data: the sandbox seed
 * loader writes DEMO_BINS, the sandbox banner prints TEST_CARDS, and the bank reads card behaviour
 * from here. Nothing else about a card influences the simulated bank.
 */

/** How a card behaves at the simulated bank; the only card fact the bank carries past 3D start. */
export type SimProfile = "approve" | "decline_at_3d" | "auth_fails" | "insufficient_funds" | "refund_pending" | "refund_declined";

export const SIM_PROFILES: readonly SimProfile[] = [
  "approve",
  "decline_at_3d",
  "auth_fails",
  "insufficient_funds",
  "refund_pending",
  "refund_declined",
];

export const isSimProfile = (value: unknown): value is SimProfile =>
  typeof value === "string" && (SIM_PROFILES as readonly string[]).includes(value);

export interface TestCard {
  pan: string;
  profile: SimProfile;
  /** The outcome column of docs/checkout.md, for the sandbox banner and docs. */
  outcome: string;
}

/** docs/checkout.md, every row, in its order. Any future expiry and any 3-digit CVV work. */
export const TEST_CARDS: readonly TestCard[] = [
  { pan: "4000001100000009", profile: "approve", outcome: "approved" },
  { pan: "4000002200000006", profile: "approve", outcome: "approved" },
  { pan: "5400006600000006", profile: "approve", outcome: "approved" },
  { pan: "4000003300000003", profile: "approve", outcome: "approved; single charge only" },
  { pan: "4000004400000000", profile: "approve", outcome: "approved; single charge only" },
  { pan: "4000005500000006", profile: "approve", outcome: "approved where foreign cards are accepted" },
  { pan: "5400007700000003", profile: "decline_at_3d", outcome: "declined at 3D start (payment_declined)" },
  { pan: "4000008800000007", profile: "auth_fails", outcome: "3D authentication fails whatever the code" },
  { pan: "4000009900000004", profile: "insufficient_funds", outcome: "capture rejected (insufficient funds)" },
  { pan: "4000001200000008", profile: "approve", outcome: "single charge only (installments blocked)" },
  { pan: "5400001300000000", profile: "refund_pending", outcome: "approved; refunds stay pending 60 s, then approve" },
  { pan: "4000001500000005", profile: "refund_declined", outcome: "approved; refunds are declined" },
  { pan: "3400001400000004", profile: "approve", outcome: "unresolved BIN (not in the BIN table); approved" },
];

export type CardFamily = "credit" | "debit" | "prepaid" | "foreign";

/** One row of the BIN table, in the seed file's shape (docs/seed.md#the-seed-file `bins`). */
export interface DemoBin {
  bin: string;
  brand: string | null;
  family: CardFamily;
  bank: string | null;
  /** False where the card may only be charged once: debit, prepaid, foreign, or blocked. */
  installments: boolean;
}

const credit = (bin: string, brand: string, bank: string, installments = true): DemoBin => ({
  bin,
  brand,
  family: "credit",
  bank,
  installments,
});

/**
 * 8-digit BINs of the test cards (docs/checkout.md "BIN facts"). 34000014 is left out on purpose: it is the
 * unresolved-BIN card. Cards that share a BIN row's facts still get their own row, because
 * every test card has its own 8-digit prefix.
 */
export const DEMO_BINS: readonly DemoBin[] = [
  credit("40000011", "bonus", "Demo Bank A"),
  credit("40000022", "world", "Demo Bank B"),
  credit("54000066", "maximum", "Demo Bank C"),
  { bin: "40000033", brand: null, family: "debit", bank: "Demo Bank A", installments: false },
  { bin: "40000044", brand: null, family: "prepaid", bank: "Demo Bank B", installments: false },
  { bin: "40000055", brand: null, family: "foreign", bank: null, installments: false },
  credit("54000077", "axess", "Demo Bank A"),
  credit("40000088", "bonus", "Demo Bank A"),
  credit("40000099", "bonus", "Demo Bank A"),
  credit("40000012", "bonus", "Demo Bank A", false),
  credit("54000013", "world", "Demo Bank B"),
  credit("40000015", "bonus", "Demo Bank A"),
];

const PROFILE_BY_PAN: ReadonlyMap<string, SimProfile> = new Map(TEST_CARDS.map((c) => [c.pan, c.profile]));

/** Any card outside the table behaves like an ordinary approved card (docs/checkout.md, last row). */
export const toSimProfile = (pan: string): SimProfile => PROFILE_BY_PAN.get(pan) ?? "approve";
