import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PANEL_EMAIL } from "../../src/domain/users/demo";
import { CSV_HEADINGS } from "../../src/panel/payments-csv";
import { type Browser, logIn, openChromium, seriousViolations, shot } from "./panel-chromium";
import { startPanelKasa, type PanelKasa } from "./panel-servers";
import { seedWorld, type World } from "./panel-world";
import { ensureChromium } from "./setup";

// Issue 38 acceptance in headless Chromium: the dashboard a merchant opens every morning (the
// 30-day chart and its table, totals, the success rate with failures by reason and by bank,
// refunds, open links, payouts to come), the payments list filtered by bank and reason, and its
// CSV export downloaded as a browser does. Every page passes axe; screenshots go to test/artifacts/.

const chromium = await ensureChromium();
if (!chromium.ok) process.stderr.write(`[browser tests] NOT RUN: Chromium could not be installed: ${chromium.reason}\n`);

const cells = async (b: Browser, selector: string) =>
  await b.page.locator(selector).evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => (c as HTMLElement).innerText.trim())));

describe.runIf(chromium.ok)("issue 38: the merchant's dashboard, filters and CSV export in Chromium", () => {
  let kasa: PanelKasa;
  let world: World;
  let b: Browser;

  beforeAll(async () => {
    kasa = await startPanelKasa();
    world = await seedWorld(kasa);
    b = await openChromium(chromium.ok ? chromium.path : "");
    await logIn(b.page, kasa, DEMO_PANEL_EMAIL, kasa.password);
  });

  afterAll(async () => {
    await b?.close();
    await kasa?.close();
  });

  it("totals for today, 7 and 30 days, and the 30 days as an SVG chart with the same numbers in a table", async () => {
    const page = b.page;
    await page.goto(`${kasa.baseUrl}/panel/`);
    expect(await page.locator("#today-count").innerText()).toBe("2");
    expect(await page.locator("#today-sum").innerText()).toBe("223,45 TL");
    expect(await page.locator("#week-count").innerText()).toBe("3");
    expect(await page.locator("#month-sum").innerText()).toBe("473,45 TL");
    const chart = page.locator("svg.chart");
    expect(await chart.getAttribute("role")).toBe("img");
    expect(await chart.locator("rect.bar").count()).toBe(30);
    const heights = await chart.locator("rect.bar").evaluateAll((r) => r.map((e) => Number(e.getAttribute("height"))));
    expect(heights.filter((h) => h > 0)).toHaveLength(2);
    expect(heights.at(-1)).toBeGreaterThan(0);
    // The same numbers as a table, newest day first: today's two captures, then yesterday's one.
    await page.locator("details.days summary").click();
    const days = await cells(b, "#days tbody tr");
    expect(days).toHaveLength(30);
    expect(days.slice(0, 2).map((d) => d.slice(1))).toEqual([
      ["2", "223,45 TL"],
      ["1", "250,00 TL"],
    ]);
    expect(days[0]![0]).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    await shot(page, "dashboard");
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("the success rate over card attempts, the failures by reason and the same per bank", async () => {
    const page = b.page;
    await page.goto(`${kasa.baseUrl}/panel/`);
    // 8 finished attempts, 3 captured: yesterday's, today's and the one failed over to Demo Bank B.
    expect(await page.locator("#success-rate").innerText()).toBe("%37,5");
    expect(await cells(b, "#reasons tbody tr")).toEqual([
      ["3D doğrulama başarısız", "1", "%20"],
      ["Banka reddetti", "2", "%40"],
      ["Limit ya da banka erişilemedi", "1", "%20"],
      ["Yarıda bırakıldı", "1", "%20"],
    ]);
    const banks: Record<string, string[]> = Object.fromEntries((await cells(b, "#banks tbody tr")).map((r) => [r[0], r.slice(1)]));
    expect(banks["Demo Bank A"]).toEqual(["6", "2", "%33,3", "1", "2", "0", "1"]);
    expect(banks["Demo Bank B"]).toEqual(["1", "1", "%100", "0", "0", "0", "0"]);
    // The attempt no member could take is filed under the connection its payment counted on.
    expect(Object.values(banks).reduce((n, r) => n + Number(r[5]), 0)).toBe(1);
    expect(banks["vpos-est"]).toEqual(["1", "0", "%0", "0", "0", "1", "0"]);
  });

  it("refunds, open links and the payouts to come with their value dates", async () => {
    const page = b.page;
    await page.goto(`${kasa.baseUrl}/panel/`);
    expect(await page.locator("#refunds-count").innerText()).toBe("1");
    expect(await page.locator("#refunds-sum").innerText()).toBe("50,00 TL");
    expect(await page.locator("#links-count").innerText()).toBe("1");
    expect(await page.locator("#links-sum").innerText()).toBe("400,00 TL");
    const payouts = await cells(b, "#payouts-due tbody tr");
    expect(payouts.length).toBeGreaterThan(0);
    for (const row of payouts) {
      expect(row[0]).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
      expect(row[1]).toMatch(/^[\d.]+,\d{2} TL$/);
    }
  });

  it("filters the payments by bank and by failure reason, in Turkish, and passes axe", async () => {
    const page = b.page;
    await page.goto(`${kasa.baseUrl}/panel/payments`);
    await page.getByLabel("Banka").selectOption("Demo Bank B");
    await page.getByRole("button", { name: "Filtrele" }).click();
    let list = await page.locator("#payments").innerText();
    expect(list).toContain(world.routedToB);
    expect(list).not.toContain(world.todays);
    await shot(page, "payments-by-bank");
    await page.goto(`${kasa.baseUrl}/panel/payments`);
    await page.getByLabel("Başarısızlık nedeni").selectOption({ label: "Yarıda bırakıldı" });
    await page.getByRole("button", { name: "Filtrele" }).click();
    expect(new URL(page.url()).searchParams.get("reason")).toBe("abandoned");
    list = await page.locator("#payments").innerText();
    expect(list).toContain(world.abandoned);
    expect(list).toContain("Süresi doldu");
    expect(await page.locator("#payments tbody tr").count()).toBe(1);
    await page.goto(`${kasa.baseUrl}/panel/payments?reason=declined`);
    expect(await page.locator("#payments tbody tr").count()).toBe(2);
    await shot(page, "payments-by-reason");
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("downloads the filtered list as a CSV Excel in Turkey opens: BOM, `;`, decimal comma, documented columns", async () => {
    const page = b.page;
    await page.goto(`${kasa.baseUrl}/panel/payments?status=captured`);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: /CSV olarak indir/ }).click()]);
    expect(download.suggestedFilename()).toMatch(/^odemeler-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes
      .toString("utf8")
      .slice(1)
      .split("\r\n")
      .filter((l) => l !== "");
    expect(lines[0]!.split(";")).toEqual(CSV_HEADINGS);
    const rows = lines.slice(1).map((l) => l.split(";"));
    expect(rows.map((r) => r[0]).sort()).toEqual([world.yesterdays, world.todays, world.routedToB].sort());
    const today = rows.find((r) => r[0] === world.todays)!;
    expect(today[CSV_HEADINGS.indexOf("Durum")]).toBe("Tahsil edildi");
    expect(today[CSV_HEADINGS.indexOf("Tutar (TL)")]).toBe("123,45");
  });

  it("no page broke its CSP", () => {
    expect(b.csp).toEqual([]);
  });
});
