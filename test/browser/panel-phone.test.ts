import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PANEL_EMAIL } from "../../src/domain/users/demo";
import * as words from "../../src/panel/words";
import { type Browser, logIn, openChromium, type Page, seriousViolations, shot } from "./panel-chromium";
import { startPanelKasa, type PanelKasa } from "./panel-servers";
import { seedWorld, VIEWER_EMAIL, VIEWER_PASSWORD, type World } from "./panel-world";
import { ensureChromium } from "./setup";
import { SECRET, setWebhook } from "../unit/webhooks/support";

// Issue 38 acceptance in headless Chromium: at 390 px wide (a phone) no panel page scrolls
// sideways and every link, button and field is a 44 px target, each page passing axe (screenshots
// panel-phone-*.png); and a `viewer` walking every page they may open sees no English state and no
// raw field name: API names live only in title attributes and in <code>/<pre> (docs/panel.md, Words).

const chromium = await ensureChromium();
if (!chromium.ok) process.stderr.write(`[browser tests] NOT RUN: Chromium could not be installed: ${chromium.reason}\n`);

const PHONE = 390;

/** Every API value the word tables translate, and the API's field names: none may show as text. */
const TABLES = [
  words.PAYMENT_STATES,
  words.ATTEMPT_STATES,
  words.CHANNELS,
  words.OUTCOMES,
  words.REFUND_METHODS,
  words.REFUND_STATES,
  words.LINK_STATES,
  words.PAYOUT_STATES,
  words.DELIVERY_STATES,
  words.DELIVERY_OUTCOMES,
  words.EVENT_TYPES,
  words.ROLES,
  words.USER_STATES,
  words.REQUIREMENTS,
  words.ROUTE_RULES,
];
// "panel" is also the Turkish word the channel translates to.
const FIELD_NAMES = ["paymentCode", "partnerTxCode", "terminalId", "paymentRef", "connectionId", "expectedValueDate", "netToPartner"];
const ENGLISH = [...new Set([...TABLES.flatMap((t) => Object.keys(t)), ...FIELD_NAMES])].filter((w) => w !== "panel");
// A word, not part of an address or an identifier (the viewer's own e-mail address is data).
const FORBIDDEN = new RegExp(
  `(?<![\\p{L}\\p{N}_.@-])(${ENGLISH.map((w) => w.replace(/[.]/g, "\\.")).join("|")})(?![\\p{L}\\p{N}_@-])`,
  "u",
);

/** The page's text outside <code>, <pre>, scripts and styles: what a merchant reads. */
const readableText = (page: Page) =>
  page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement?.closest("code, pre, script, style")) continue;
      const text = n.textContent?.trim();
      if (text) out.push(text);
    }
    return out;
  });

/** At the phone's width: the page's own width, and every visible target smaller than 44 px. */
const phoneFacts = (page: Page) =>
  page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    width: window.innerWidth,
    small: [...document.querySelectorAll<HTMLElement>("a[href], button, input:not([type=hidden]), select, textarea, summary")]
      .filter((e) => e.checkVisibility())
      .map((e) => ({ e, r: e.getBoundingClientRect() }))
      .filter(({ r }) => r.height < 44 || r.width < 44)
      .map(({ e, r }) => `${e.outerHTML.slice(0, 80)} ${Math.round(r.width)}x${Math.round(r.height)}`),
  }));

describe.runIf(chromium.ok)("issue 38: the panel on a phone, and in Turkish for a viewer", () => {
  let kasa: PanelKasa;
  let world: World;
  let b: Browser;
  const paths: Record<string, string> = {};

  beforeAll(async () => {
    kasa = await startPanelKasa();
    const deps = kasa.runtime.deps;
    // A receiver that is not there: every delivery fails, so the webhook pages have attempts to show.
    await setWebhook({ store: deps.store, clock: deps.clock, deps }, "ptn_demo", "http://127.0.0.1:1/hooks", SECRET);
    world = await seedWorld(kasa);
    await deps.timers.runDue();
    b = await openChromium(chromium.ok ? chromium.path : "", PHONE);
    await logIn(b.page, kasa, DEMO_PANEL_EMAIL, kasa.password);
    const first = async (list: string, selector: string) => {
      await b.page.goto(`${kasa.baseUrl}${list}`);
      return (await b.page.locator(selector).first().getAttribute("href")) ?? list;
    };
    Object.assign(paths, {
      overview: "/panel/",
      payments: "/panel/payments",
      payment: `/panel/payments/${world.yesterdays}`,
      routed: `/panel/payments/${world.routedToB}`,
      links: "/panel/links",
      payouts: "/panel/payouts",
      payout: await first("/panel/payouts", "main table a"),
      webhooks: "/panel/webhooks",
      webhook: await first("/panel/webhooks", "main table a"),
      acceptance: "/panel/acceptance",
    });
  });

  afterAll(async () => {
    await b?.close();
    await kasa?.close();
  });

  it("at 390 px no page scrolls sideways, targets are 44 px, axe finds nothing serious", async () => {
    const pages = { ...paths, "new-payment": "/panel/new-payment", keys: "/panel/keys", users: "/panel/users", audit: "/panel/audit" };
    for (const [name, path] of Object.entries(pages)) {
      await b.page.goto(`${kasa.baseUrl}${path}`);
      expect(new URL(b.page.url()).pathname, name).toBe(path.split("?")[0]);
      await b.page.locator("details").evaluateAll((ds) => {
        for (const d of ds) d.setAttribute("open", "");
      });
      const facts = await phoneFacts(b.page);
      expect(facts.scrollWidth, `${name} scrolls sideways`).toBeLessThanOrEqual(facts.width);
      expect(facts.small, `${name}: targets under 44 px`).toEqual([]);
      await shot(b.page, `phone-${name}`);
      expect(await seriousViolations(b.page), name).toEqual([]);
    }
    expect(b.csp).toEqual([]);
  });

  it("the login page fits a phone too", async () => {
    const other = await openChromium(chromium.ok ? chromium.path : "", PHONE);
    try {
      await other.page.goto(`${kasa.baseUrl}/panel/login`);
      const facts = await phoneFacts(other.page);
      expect(facts.scrollWidth).toBeLessThanOrEqual(facts.width);
      expect(facts.small).toEqual([]);
      await shot(other.page, "phone-login");
    } finally {
      await other.close();
    }
  });

  it("a viewer walking every page sees no English state and no raw field name", async () => {
    const viewer = await openChromium(chromium.ok ? chromium.path : "");
    try {
      await logIn(viewer.page, kasa, VIEWER_EMAIL, VIEWER_PASSWORD);
      const walked: string[] = [];
      for (const [name, path] of Object.entries(paths)) {
        await viewer.page.goto(`${kasa.baseUrl}${path}`);
        expect(new URL(viewer.page.url()).pathname, name).toBe(path);
        const english = (await readableText(viewer.page)).filter((t) => FORBIDDEN.test(t));
        expect(english, `${name} (${path})`).toEqual([]);
        walked.push(name);
      }
      // The walk read real pages: the states are there, in Turkish, with their API names in titles.
      await viewer.page.goto(`${kasa.baseUrl}/panel/payments`);
      expect(await viewer.page.locator('#payments [title="captured"]').first().innerText()).toBe("Tahsil edildi");
      expect(await viewer.page.locator('#payments [title="expired"]').first().innerText()).toBe("Süresi doldu");
      await viewer.page.goto(`${kasa.baseUrl}${paths.routed}`);
      expect(await viewer.page.locator('main [title="fallback"]').innerText()).toMatch(/^Yedek sıra/);
      expect(walked).toHaveLength(Object.keys(paths).length);
    } finally {
      await viewer.close();
    }
  });

  it("the check catches an English state (a page that showed one would fail)", () => {
    expect(FORBIDDEN.test("Durum: captured")).toBe(true);
    expect(FORBIDDEN.test("partnerTxCode")).toBe(true);
    expect(FORBIDDEN.test("payment.captured")).toBe(true);
    expect(FORBIDDEN.test("Tahsil edildi · pay_01abc · Demo Bank A · viewer@demo.test")).toBe(false);
  });
});
