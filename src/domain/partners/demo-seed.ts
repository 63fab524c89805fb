import type { BankModule, DemoContext, DemoRow } from "../../bank/module";
import { BANKS } from "../../bank/registry";
import { parseSeed } from "./seed";
import type { SeedConnection, SeedFile } from "./seed-schema";

// docs/contract.md, The sandbox: what `kasa sandbox` loads into a new database. Fixed key and secret so the
// README's curl tour works as printed. Each bank adds its connections and terminals, pointed at
// the simulator the sandbox itself serves (docs/banks.md, "The sandbox demo").

export const DEMO_API_KEY = "kasa_sk_demo_0000000000000000000000000000000000";
/** Where the demo partner's webhooks go (the README's tour listens there). */
export const DEMO_WEBHOOK_URL = "http://127.0.0.1:9000/hooks";
export const DEMO_WEBHOOK_SECRET = "whsec_demo";
export const DEMO_PARTNER_ID = "ptn_demo";
const DEMO_PSP_ID = "psp-1";

const demoContext = (baseUrl: string): DemoContext => ({ baseUrl, psp: DEMO_PSP_ID, partner: DEMO_PARTNER_ID });

/** `baseUrl`: the sandbox's own, where the banks' simulators answer. */
export function demoSeed(bins: NonNullable<SeedFile["bins"]>, baseUrl: string, banks: readonly BankModule[] = BANKS): SeedFile {
  const ctx = demoContext(baseUrl);
  const demos = banks.flatMap((b) => (b.demo ? [b.demo] : []));
  return parseSeed(
    {
      psps: [{ id: DEMO_PSP_ID, active: true }],
      connections: demos.flatMap((d) => d.connections(ctx)),
      partners: [
        {
          id: DEMO_PARTNER_ID,
          name: "Demo Shop",
          status: "active",
          apiKeys: [DEMO_API_KEY],
          webhook: { url: DEMO_WEBHOOK_URL, secret: DEMO_WEBHOOK_SECRET },
          allowedRedirectHosts: null,
          amountLimits: null,
          cardAttemptLimit: 3,
          installmentCap: 12,
          rateLimitMultiplier: 1,
          payoutAccount: "TR000000000000000000000000",
        },
      ],
      terminals: withDemoRouter(demos.flatMap((d) => d.terminals(ctx))),
      bins,
    },
    banks,
  );
}

/** The demo router's members, those of this list of banks that exist (a test may run fewer banks). */
const ROUTER_MEMBERS = ["T-1001", "T-9101", "T-3001"];
const DEMO_ROUTER_ID = "T-9001";

/**
 * docs/routing.md, The sandbox: router T-9001 over T-1001, T-9101 and T-3001. Foreign cards go to
 * T-1001 (the only member that takes them); big payments split 70/30 between the two simulated
 * banks; installments run only on the card's own bank.
 */
function withDemoRouter(terminals: readonly DemoRow[]): DemoRow[] {
  const present = ROUTER_MEMBERS.filter((id) => terminals.some((t) => t.id === id));
  if (!present.includes("T-1001") || !present.includes("T-9101")) return [...terminals];
  const router = {
    id: DEMO_ROUTER_ID,
    partner: DEMO_PARTNER_ID,
    active: true,
    infrastructure: "standard",
    commissionBasis: "gross",
    routing: {
      members: present,
      rules: [
        { name: "foreign", when: { foreign: true }, route: ["T-1001"] },
        {
          name: "big",
          when: { amountFrom: 5_000_000 },
          split: [
            { terminal: "T-1001", weight: 70 },
            { terminal: "T-9101", weight: 30 },
          ],
        },
      ],
      fallback: present,
      order: "rules",
      onUsInstallments: true,
    },
  };
  return [...terminals, router];
}

/**
 * The demo connections that carry settings (they point at the sandbox's own simulators): every
 * sandbox start writes them again with this run's base URL, whatever port it listens on now.
 */
export function demoSimulatorConnections(baseUrl: string, banks: readonly BankModule[] = BANKS): SeedConnection[] {
  const ctx = demoContext(baseUrl);
  return banks.flatMap((b) => (b.demo && b.settings ? (parseSeed({ connections: b.demo.connections(ctx) }, banks).connections ?? []) : []));
}

/** The sandbox banner's lines about the demo terminals and the banks' test data. */
export function demoBanner(baseUrl: string, banks: readonly BankModule[] = BANKS): { terminals: string[]; notes: string[] } {
  const ctx = demoContext(baseUrl);
  const demos = banks.flatMap((b) => (b.demo ? [b.demo] : []));
  const router = withDemoRouter(demos.flatMap((d) => d.terminals(ctx))).find((t) => t.id === DEMO_ROUTER_ID);
  const members = (router?.routing as { members: string[] } | undefined)?.members ?? [];
  const routerLine = router
    ? [
        `${DEMO_ROUTER_ID} (router over ${members.join(", ")}: foreign cards to T-1001, 50,000 TL and up split 70/30, installments on the card's own bank)`,
      ]
    : [];
  return { terminals: [...demos.flatMap((d) => d.bannerTerminals(ctx)), ...routerLine], notes: demos.flatMap((d) => d.bannerNotes(ctx)) };
}
