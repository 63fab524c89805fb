import { it } from "vitest";
import { harness } from "../support/harness";
import { createLink, openPage, textOf, payInSteps, answerAcs, CARDS, optionsOf } from "../api/link-pages-flow";
it("smoke", async () => {
  const h = await harness();
  const link = await createLink(h, { customerCommissionShareBps: 10000, payerName: "Ayşe Yılmaz", items: [{ name: "Kalem", amount: 123456, note: "mavi" }], description: "Sipariş 42" });
  const page = await openPage(h, link.token);
  console.log(page.page!.status, page.page!.headers.get("content-security-policy"));
  console.log(textOf(page.page));
  console.log((await optionsOf(h, link.token, { bin: "40000011" })).text);
  const acs = await payInSteps(h, link.token, CARDS.bonus, 3);
  console.log(acs.page?.status, acs.page?.url, textOf(acs.page).slice(0, 500));
  const done = await answerAcs(h, acs);
  console.log(done.leftTo, done.page?.status, textOf(done.page).slice(0, 500));
  console.log(done.trail.map(v => v.status + " " + v.url));
});
