import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { CSV_HEADINGS } from "../../src/panel/payments-csv";
import { harness, type Harness } from "../support/harness";
import { addPanelUser, codeOf, panelClient } from "../support/panel-client";
import { createPayment, pay } from "./payments-flow";

// Issue 38: the payments list as a CSV file Excel in Turkey opens as it is (docs/panel.md, CSV
// export). The test reads the bytes as such an Excel does: the byte order mark says UTF-8, `;` is
// the list separator, a quoted cell may hold `;`, quotes and line breaks, and a number has a
// decimal comma.

let h: Harness;
afterEach(async () => h?.close());

/** RFC 4180 with `;`: what Excel does with a file that starts with a UTF-8 byte order mark. */
function readAsTurkishExcel(bytes: Uint8Array): string[][] {
  expect([...bytes.subarray(0, 3)], "UTF-8 byte order mark").toEqual([0xef, 0xbb, 0xbf]);
  const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(3));
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted) {
      if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === "") quoted = true;
    else if (c === ";") endCell();
    else if (c === "\r" && text[i + 1] === "\n") {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else cell += c;
  }
  expect(cell === "" && row.length === 0, "the file ends with CRLF").toBe(true);
  return rows;
}

/** A number as Turkish Excel reads it: a decimal comma, no thousands mark; null when it is text. */
const excelNumber = (cell: string): number | null => (/^-?\d+(,\d+)?$/.test(cell) ? Number(cell.replace(",", ".")) : null);

async function viewer() {
  await addPanelUser(h, "viewer@shop.example", "viewer");
  const c = panelClient(h);
  await c.login("viewer@shop.example");
  return c;
}

async function captured(partnerTxCode: string, amount: number): Promise<string> {
  const r = await createPayment(h, { partnerTxCode, amount });
  expect(r.status).toBe(201);
  const { done } = await pay(h, r.json.paymentRef, "4000001100000009");
  expect(done.leftTo).toContain("status=captured");
  return r.json.paymentCode as string;
}

describe("issue 38: the panel's CSV export", () => {
  it("is the filtered list, with the documented columns, numbers and dates Excel in Turkey reads", async () => {
    h = await harness();
    const plain = await captured("ORDER-1", 123_456);
    const tricky = await captured('=SUM(A1);"kargo" şişe', 10_050);
    const open = await createPayment(h, { partnerTxCode: "ORDER-OPEN", amount: 5_000 });
    const c = await viewer();
    const res = await c.get("/panel/payments.csv?status=captured");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="odemeler-\d{4}-\d{2}-\d{2}\.csv"$/);
    // The bytes as sent (a Response's text() would drop the byte order mark).
    const raw = await h.runtime.app.request("http://kasa.test/panel/payments.csv?status=captured", {
      headers: { cookie: c.cookie ?? "", "x-forwarded-for": "203.0.113.7" },
    });
    const rows = readAsTurkishExcel(new Uint8Array(await raw.arrayBuffer()));
    expect(rows[0]).toEqual(CSV_HEADINGS);
    const col = (name: string) => CSV_HEADINGS.indexOf(name);
    const byCode = new Map(rows.slice(1).map((r) => [r[col("Ödeme kodu")], r]));
    expect([...byCode.keys()].sort()).toEqual([plain, tricky].sort());
    expect(byCode.has(open.json.paymentCode)).toBe(false);
    const one = byCode.get(plain)!;
    expect(one).toHaveLength(CSV_HEADINGS.length);
    expect(excelNumber(one[col("Tutar (TL)")]!)).toBe(1234.56);
    expect(excelNumber(one[col("Komisyon (TL)")]!)).not.toBeNull();
    expect(excelNumber(one[col("Size geçecek (TL)")]!)).not.toBeNull();
    expect(excelNumber(one[col("İade edilen (TL)")]!)).toBe(0);
    expect(excelNumber(one[col("Taksit")]!)).toBe(1);
    expect([one[col("Durum")], one[col("Durum kodu")], one[col("Kanal")]]).toEqual(["Tahsil edildi", "captured", "API"]);
    expect(one[col("Valör günü")]).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    expect(one[col("Oluşturma")]).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);
    expect(one[col("Kart")]).toBe("400000******0009");
    // The merchant's own text survives `;`, quotes and Turkish letters, and never runs as a formula.
    expect(byCode.get(tricky)![col("Sipariş kodu")]).toBe(`'=SUM(A1);"kargo" şişe`);
    expect(excelNumber(byCode.get(tricky)![col("Tutar (TL)")]!)).toBe(100.5);
  });

  it("every column is documented in docs/panel.md, in order", () => {
    const doc = readFileSync("docs/panel.md", "utf8");
    const section = doc.slice(doc.indexOf("## CSV export"), doc.indexOf("## On a phone"));
    const documented = [...section.matchAll(/^\| ([^|`]+?) \| `/gm)].map((m) => m[1]);
    expect(documented).toEqual(CSV_HEADINGS);
  });

  it("takes the list's filters; a bad one is the list's 400; another partner's payments never appear", async () => {
    h = await harness();
    const mine = await captured("ORDER-2", 10_000);
    const c = await viewer();
    expect((await c.get("/panel/payments.csv?status=failed")).text.split("\r\n").filter((l) => l !== "")).toHaveLength(1);
    expect((await c.get(`/panel/payments.csv?q=ORDER-2`)).text).toContain(mine);
    const bad = await c.get("/panel/payments.csv?reason=bored");
    expect([bad.status, codeOf(bad.text)]).toEqual([400, "validation_error"]);
    const other = panelClient(h);
    await addPanelUser(h, "them@other.example", "viewer", "ptn_other");
    await other.login("them@other.example");
    expect((await other.get("/panel/payments.csv")).text).not.toContain(mine);
  });
});
