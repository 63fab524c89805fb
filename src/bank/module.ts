import type * as v from "valibot";
import type { PageResponse } from "../html";
import type { Log } from "../log-port";
import type { Sensitive } from "../sensitive";
import type { BankGateway } from "./gateway";
import type { BreakerSettings } from "./health/breaker";

// A bank is a module (docs/banks.md, "Adding a bank"): its folder `src/bank/<id>/` exports ONE
// descriptor of this type from `index.ts`, and `registry.ts` lists the descriptors. Everything the
// rest of kasa knows about a bank goes through these fields, so no code outside `src/bank/` names
// a bank or imports a bank's folder. The types here are plain data and functions: no h3, no store.

/** The connection columns an adapter is built from. */
export interface ConnectionBank {
  id: string;
  bank: string;
  /** The stored settings (JSON of `BankSettings.toStored`), null for a bank without settings. */
  bankConfig: string | null;
  /** The seed's `breaker` of the connection; null or absent: the defaults (docs/operating.md, Health). */
  breaker?: BreakerSettings | null;
}

/** What an adapter may use besides its connection's settings. */
export interface AdapterEnv {
  /** How the adapter reaches its bank; tests route it to the app's own simulator. */
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  log: Log;
  /** kasa's public base URL, without a trailing slash: where its own simulated pages answer. */
  baseUrl: string;
  /** The bank's per-database secret when it asks for one (`secret: true`), else null. */
  secret: Sensitive<string> | null;
  /** The service clock (deps.clock), for banks whose requests carry the time they were made. */
  nowMs?: () => number;
}

/**
 * The seed file's settings of a connection of this bank: the object under the key `"<id>"`
 * (docs/banks.md, "Seed file"). Messages of `schema` name the rule, never the value: they are
 * shown with the field's path, and some fields are secrets.
 */
export interface BankSettings {
  schema: v.GenericSchema;
  /** The checked seed object -> what the connection stores (as JSON) and the adapter reads back. */
  toStored(settings: unknown): unknown;
}

/** A bank's settings, typed where they are written and erased for the list of banks. */
export const bankSettings = <S extends v.GenericSchema>(schema: S, toStored: (settings: v.InferOutput<S>) => unknown): BankSettings => ({
  schema,
  toStored: (settings) => toStored(settings as v.InferOutput<S>),
});

/** What `kasa connections check` reports: did the bank answer, did it accept the credentials. */
export interface ConnectionCheck {
  answered: boolean;
  /** null: the answer did not say. */
  credentialsAccepted: boolean | null;
  latencyMs: number;
  /** The bank's own words (its error text), or "" */
  message: string;
  /** Where the check went (an API URL), shown in the heading; null: nowhere (a built-in bank). */
  target: string | null;
  /** More facts for the JSON output (the order id asked about); never a secret. */
  facts: Record<string, string>;
  /** One line printed instead of the result table, for a bank with nothing to ask. */
  note?: string;
}

export interface CheckEnv {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  /** A monotonic clock for the latency (wall time, not the sandbox's). */
  nowMs: () => number;
}

/** One request to a bank simulator's route, without h3: the HTTP layer reads it for the bank. */
export interface BankPageRequest {
  req: Request;
  url: URL;
  /** The posted form, read by the HTTP layer within its body limits (`readsForm`), else null. */
  form: Readonly<Record<string, string>> | null;
  traceId: string;
}

/**
 * A route of a bank's protocol simulator. `buyerFacing` pages (an ACS the buyer types a code
 * into) draw on the buyer's `pages.ip` budget like kasa's own pages; a bank's server-to-server
 * API does not. `readsForm`: a body that is not a readable form ends in the handoff's error page.
 */
export interface BankPageRoute {
  method: "GET" | "POST";
  path: string;
  buyerFacing: boolean;
  readsForm: boolean;
  handle(request: BankPageRequest): Promise<Response | PageResponse> | Response | PageResponse;
}

export interface SimulatorEnv {
  nowMs(): number;
  /** A fresh CSP nonce per page. */
  nonce(): string;
  /** This bank's gateway as deps.banks hands it out now (tests may have replaced it). */
  gateway(): BankGateway;
  /** How long a simulated "no answer" fault waits before answering (tests shorten it). */
  slowMs?: number;
}

/**
 * The bank's protocol simulator, served by kasa itself under `/sim-<id>/` (the protocol's own
 * paths beneath). "sandbox": only in sandbox mode (and where a test asks); "always": in every mode,
 * because connections of this bank need it (the simulated bank's ACS).
 */
export interface BankSimulator {
  serve: "always" | "sandbox";
  routes(env: SimulatorEnv): BankPageRoute[];
}

/** A seed-file row (connection, terminal, bin) as the sandbox demo writes it; `kasa seed` checks it. */
export type DemoRow = { readonly [field: string]: unknown };

export interface DemoContext {
  /** The sandbox's own base URL, where this bank's simulator answers. */
  baseUrl: string;
  /** The demo psp and partner the bank's connections and terminals belong to. */
  psp: string;
  partner: string;
}

/**
 * What the bank adds to a new sandbox database and to its banner. A demo connection with settings
 * points at the sandbox's own simulator, so every start writes it again with this run's base URL.
 */
export interface BankDemo {
  connections(ctx: DemoContext): DemoRow[];
  terminals(ctx: DemoContext): DemoRow[];
  /** Banner entries for the terminals (the first follows "Terminals:"). */
  bannerTerminals(ctx: DemoContext): string[];
  /** Banner lines after the terminals: test cards, fault amounts. */
  bannerNotes(ctx: DemoContext): string[];
}

/** A form on a page the sandbox buyer (a browser without JavaScript) reached. */
export interface BuyerForm {
  action: string;
  fieldNames: readonly string[];
}

/** How the sandbox buyer plays this bank's 3D page; a bank whose gate answers straight to the callback needs none. */
export interface BuyerPlay {
  /** The bank's page asks the buyer something: this form is it. */
  isGateForm(form: BuyerForm): boolean;
  /** What the buyer types (the one-time code) and which button it presses. */
  answer(otp: string): { values: Record<string, string>; button: string | null };
}

/** What a bank's records say of one order or refund (docs/reconciliation.md, the classes). */
export type BankRecordStatus = "approved" | "declined" | "voided" | "refunded" | "none" | "unknown";

export interface BankRecord {
  status: BankRecordStatus;
  /** The bank's captured (or refunded) amount in kuruş; null where its answer does not say. */
  amount: number | null;
  /** The bank's own transaction reference (EST: HostRefNum), null where it gave none. */
  reference: string | null;
  /** An approved order: what a void or credit of it names (the gateway's capture reference). */
  captureReference?: string | null;
  /** An approved order: true while a void can still cancel it (before the bank's end of day), else a credit must. */
  voidable?: boolean;
}

/** One attempt kasa sent to the bank, as reconciliation asks about it. */
export interface ReconcileOrder {
  attemptId: string;
  amount: number;
  installment: number;
  /** The capture reference kasa recorded, null where it recorded none (a failed or expired attempt). */
  bankReference: string | null;
  nowMs: number;
}

/** One refund kasa sent to the bank: its method, the capture it reverses, and the bank's reference of it. */
export interface ReconcileRefund {
  captureReference: string;
  /** The refund's own bank reference, null (or kasa's marker) where the bank gave none. */
  refundReference: string | null;
  method: "void" | "credit";
  amount: number;
  nowMs: number;
}

/** A row of a bank's list of one day's orders; `attemptId` is kasa's id where the order id is one of kasa's. */
export interface DayOrder {
  orderId: string;
  attemptId: string | null;
  status: BankRecordStatus;
  amount: number | null;
  reference: string | null;
}

/**
 * A bank's reconciliation facet (docs/reconciliation.md): "what does the bank say about this order,
 * this refund", from the protocol's status and history queries, and the day's orders where the
 * protocol has a list API. Every answer it cannot read is `unknown`, never an exception.
 */
export interface BankReconciler {
  order(query: ReconcileOrder): Promise<BankRecord>;
  refund(query: ReconcileRefund): Promise<BankRecord>;
  /** The orders of one Istanbul day (`dayStartMs` is its 00:00); null: no readable list. Absent: the protocol has none. */
  day?(dayStartMs: number): Promise<DayOrder[] | null>;
}

export interface BankModule {
  /** The connection's `bank` value and the seed key of its settings: lower case, unique. */
  readonly id: string;
  /** For people: listings, the banner, docs. */
  readonly name: string;
  /** null: the bank takes no settings (a seed object under its id is refused). */
  readonly settings: BankSettings | null;
  /** What `kasa connections list` prints of a connection's stored settings: secrets "[redacted]". */
  redact(connection: ConnectionBank): Record<string, unknown> | null;
  /** The listing's `model` and `api` columns ("-" where the bank has none). */
  columns(connection: ConnectionBank): { model: string; api: string };
  /** `kasa connections check`: the protocol's cheapest authenticated call. */
  check(connection: ConnectionBank, env: CheckEnv): Promise<ConnectionCheck>;
  /** Asks for a secret kept in the database (`<id>.secret`), made on first start. */
  readonly secret: boolean;
  /**
   * The adapter of one connection. Its `acsOrigin` is what the relay page's CSP lets the 3D form
   * post to (form-action); the simulator's own pages set theirs when they render.
   */
  createAdapter(connection: ConnectionBank, env: AdapterEnv): BankGateway;
  /** The reconciliation facet of one connection, asking through its adapter and its own queries; absent: every answer is unknown. */
  reconcile?(connection: ConnectionBank, env: AdapterEnv, gateway: BankGateway): BankReconciler;
  readonly simulator: BankSimulator | null;
  readonly demo: BankDemo | null;
  /**
   * "bank": the bank pays day-end payout batches itself (its adapter implements `payout`);
   * "operator": batches wait for `kasa payouts mark-paid|mark-failed`.
   */
  readonly payouts: "bank" | "operator";
  readonly buyer: BuyerPlay | null;
  /** Form encodings the bank's pages ask for (`accept-charset`), as a browser would send them. */
  readonly formCharsets: Readonly<Record<string, (pairs: ReadonlyArray<readonly [string, string]>) => string>>;
}
