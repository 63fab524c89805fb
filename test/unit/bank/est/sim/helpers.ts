import { encodeFormBytes, parseFormBytes } from "../../../../../src/bank/form-bytes";
import { asciiBytes, ver3Hash } from "../../../../../src/bank/est/hash";
import { decodeIso88599 } from "../../../../../src/bank/iso-8859-9";
import { readXml, type XmlValue, writeXml } from "../../../../../src/bank/est/xml";
import { callbackFromGatePage, createEstSimulator, EST_SIM_ACCOUNT, type EstSimulator } from "../../../../../src/bank/est/sim/simulator";

export const PANS = {
  approve: "4000001100000009",
  authFails: "4000008800000007",
  declineAt3d: "5400007700000003",
  insufficient: "4000009900000004",
  refundDeclined: "4000001500000005",
  approveMc: "5400006600000006",
} as const;

export const ACC = EST_SIM_ACCOUNT;
/** 2025-01-15 12:00 Istanbul. */
export const NOON = Date.UTC(2025, 0, 15, 9, 0, 0);

export interface Harness {
  sim: EstSimulator;
  clock: { now: number };
}

export function harness(slowMs = 50): Harness {
  const clock = { now: NOON };
  const sim = createEstSimulator({ accounts: [ACC], nowMs: () => clock.now, nonce: () => "TESTNONCE0123456789abc", slowMs });
  return { sim, clock };
}

export interface GateInput {
  pan?: string;
  amount?: string;
  oid?: string;
  storetype?: "3d" | "3d_pay";
  storeKey?: string;
  clientid?: string;
  hashAlgorithm?: string;
}

export function gateFields(input: GateInput = {}): Array<[string, string]> {
  const fields: Array<[string, string]> = [
    ["clientid", input.clientid ?? ACC.clientId],
    ["storetype", input.storetype ?? "3d"],
    ["amount", input.amount ?? "100.00"],
    ["oid", input.oid ?? "ORDER-1"],
    ["okUrl", "https://shop.example/est/ok?x=1"],
    ["failUrl", "https://shop.example/est/fail"],
    ["rnd", "abcdefghij0123456789"],
    ["lang", "tr"],
    ["currency", "949"],
    ["taksit", ""],
    ["TranType", "Auth"],
    ["hashAlgorithm", input.hashAlgorithm ?? "ver3"],
    ["pan", input.pan ?? PANS.approve],
    ["Ecom_Payment_Card_ExpDate_Month", "12"],
    ["Ecom_Payment_Card_ExpDate_Year", "30"],
    ["cv2", "123"],
  ];
  const hash = ver3Hash(
    fields.map(([n, v]) => [n, asciiBytes(v)] as const),
    asciiBytes(input.storeKey ?? ACC.storeKey),
  );
  return [...fields, ["hash", hash]];
}

export const formBody = (fields: ReadonlyArray<readonly [string, string]>): string =>
  encodeFormBytes(fields.map(([n, v]) => [n, asciiBytes(v)] as const));

export const postGate = (sim: EstSimulator, body: string): Promise<Response> =>
  sim.gate(
    new Request("http://127.0.0.1/sim-est/fim/est3Dgate", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    }),
  );

export interface Callback {
  page: string;
  action: string;
  body: string;
  raw: Array<[string, Uint8Array]>;
  f: Record<string, string>;
}

export async function threeD(sim: EstSimulator, input: GateInput = {}): Promise<Callback> {
  const res = await postGate(sim, formBody(gateFields(input)));
  const page = await res.text();
  const { action, body } = callbackFromGatePage(page);
  const raw = parseFormBytes(asciiBytes(body));
  return { page, action, body, raw, f: Object.fromEntries(raw.map(([n, v]) => [n, decodeIso88599(v)])) };
}

export type ApiRequest = Record<string, string | Record<string, string>>;

export const creds = (extra: ApiRequest = {}): ApiRequest => ({
  Name: ACC.apiUser,
  Password: ACC.apiPassword,
  ClientId: ACC.clientId,
  ...extra,
});

export const postApiRaw = (sim: EstSimulator, body: BodyInit): Promise<Response> =>
  sim.api(new Request("http://127.0.0.1/sim-est/fim/api", { method: "POST", body }));

export interface ApiAnswer {
  status: number;
  r: Record<string, string>;
  extra: Record<string, string>;
}

export async function api(sim: EstSimulator, request: ApiRequest): Promise<ApiAnswer> {
  const res = await postApiRaw(sim, new Uint8Array(writeXml("CC5Request", request)));
  const doc = readXml(new Uint8Array(await res.arrayBuffer()), "CC5Response");
  if (doc === null) throw new Error("not a CC5Response");
  const r: Record<string, string> = {};
  let extra: Record<string, string> = {};
  for (const [k, v] of Object.entries(doc) as Array<[string, XmlValue]>) {
    if (typeof v === "string") r[k] = v;
    else extra = { ...v };
  }
  return { status: res.status, r, extra };
}

export const auth = (sim: EstSimulator, cb: Callback, total: string, oid = cb.f.oid as string) =>
  api(
    sim,
    creds({
      Type: "Auth",
      OrderId: oid,
      Total: total,
      Currency: "949",
      Number: cb.f.md as string,
      PayerTxnId: cb.f.xid as string,
      Mode: "P",
    }),
  );

/** A 3D authentication and an approved Auth for it. */
export async function sale(sim: EstSimulator, oid: string, amount: string, pan: string = PANS.approve): Promise<ApiAnswer> {
  const cb = await threeD(sim, { oid, amount, pan });
  return auth(sim, cb, amount);
}
