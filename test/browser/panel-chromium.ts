import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import type { PanelKasa } from "./panel-servers";

// Issue 38: what the panel's Chromium tests share: a headless Debian Chromium with a fresh profile,
// a keyboard-free login, screenshots under test/artifacts/, and axe-core run through the DevTools
// protocol (the page's CSP stays strict) with no serious or critical violation allowed.

export const ARTIFACTS = join(process.cwd(), "test", "artifacts");
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"];
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

type Pw = typeof import("playwright-core");
export type Context = Awaited<ReturnType<Pw["chromium"]["launchPersistentContext"]>>;
export type Page = Context["pages"] extends () => (infer P)[] ? P : never;
type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

export type Browser = { context: Context; page: Page; csp: string[]; close(): Promise<void> };

export async function openChromium(path: string, width = 1024): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const pw = await import("playwright-core");
  const profile = mkdtempSync(join(tmpdir(), "kasa-chromium-"));
  const context = await pw.chromium.launchPersistentContext(profile, {
    executablePath: path,
    headless: true,
    args: ARGS,
    viewport: { width, height: 900 },
    acceptDownloads: true,
  });
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  const csp: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
  });
  return {
    context,
    page,
    csp,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function logIn(page: Page, kasa: PanelKasa, email: string, password: string): Promise<void> {
  await page.goto(`${kasa.baseUrl}/panel/login`);
  await page.locator("#email").fill(email);
  await page.locator("#password").fill(password);
  await page.getByRole("button", { name: "Giriş yap" }).click();
  await page.waitForURL(`${kasa.baseUrl}/panel/`);
}

export const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `panel-${name}.png`), fullPage: true });

/** axe-core's serious and critical findings on the page as it stands. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  type Result = { violations: Violation[]; passes: unknown[] };
  const result = (await page.evaluate(() => (globalThis as unknown as { axe: { run(): Promise<unknown> } }).axe.run())) as Result;
  expect(result.passes.length, "axe ran its rules").toBeGreaterThan(10);
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} @ ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
