import * as prom from "prom-client";
import { describe, expect, it } from "vitest";
import { Counter, Histogram, Registry } from "../../../src/metrics";

// Issue 37: kasa's counters and histograms keep their own series (no prom-client call per
// request) and must print exactly what prom-client's own Counter and Histogram print.

const ROUTES = ["/a", "/b/:id", 'odd"\\\n'];

function feed(
  counter: { inc(labels: Record<string, string>, by?: number): void },
  plain: { inc(labels: Record<string, string>, by?: number): void },
  histogram: { observe(value: number, labels: Record<string, string>): void },
  units: { observe(value: number, labels: Record<string, string>): void },
): void {
  for (let i = 0; i < 3000; i++) {
    const route = ROUTES[i % 3]!;
    counter.inc({ method: i % 2 ? "GET" : "POST", route, status: String(200 + (i % 5)) });
    counter.inc({ status: "500", route, method: "GET" }, 2);
    histogram.observe((i % 97) / 37.3, { route, status: String(200 + (i % 2)) });
    units.observe(i % 11, {});
  }
  plain.inc({}, 3.5);
}

describe("issue 37: kasa's metric families print as prom-client's", () => {
  it("counters and histograms, with and without labels, fed or never fed", async () => {
    const ours = new Registry();
    feed(
      new Counter(ours, "t_requests_total", "by method, route and status \\ with\nnewline", ["method", "route", "status"]),
      new Counter(ours, "t_plain_total", "no labels"),
      new Histogram(ours, "t_latency_seconds", "latency", [0.001, 0.01, 0.1, 1], ["route", "status"]),
      new Histogram(ours, "t_units", "units", [1, 2, 4, 8]),
    );
    new Histogram(ours, "t_never", "never fed", [1, 2]);
    new Counter(ours, "t_never_total", "never fed", ["kind"]);

    const theirs = new prom.Registry();
    const registers = [theirs];
    const requests = new prom.Counter({
      name: "t_requests_total",
      help: "by method, route and status \\ with\nnewline",
      labelNames: ["method", "route", "status"],
      registers,
    });
    const plain = new prom.Counter({ name: "t_plain_total", help: "no labels", registers });
    const latency = new prom.Histogram({
      name: "t_latency_seconds",
      help: "latency",
      buckets: [0.001, 0.01, 0.1, 1],
      labelNames: ["route", "status"],
      registers,
    });
    const units = new prom.Histogram({ name: "t_units", help: "units", buckets: [1, 2, 4, 8], registers });
    feed(
      { inc: (l, by) => requests.inc(l, by) },
      { inc: (l, by) => plain.inc(l, by) },
      { observe: (v, l) => latency.observe(l, v) },
      { observe: (v, l) => units.observe(l, v) },
    );
    new prom.Histogram({ name: "t_never", help: "never fed", buckets: [1, 2], registers });
    new prom.Counter({ name: "t_never_total", help: "never fed", labelNames: ["kind"], registers });

    // Our registry also carries prom-client's default process metrics (kasa_*), which move.
    const mine = (await ours.render()).split("\n\n").filter((family) => family.includes("# HELP t_"));
    expect(mine.join("\n\n").trimEnd()).toBe((await theirs.metrics()).trimEnd());
  });

  it("refuses what prom-client refuses: an unknown label, a negative or non-finite amount", () => {
    const registry = new Registry();
    const counter = new Counter(registry, "t_refusals_total", "refusals", ["budget"]);
    expect(() => counter.inc({ route: "/x" })).toThrow(/not included in initial labelset/);
    expect(() => counter.inc({ budget: "b" }, -1)).toThrow(/not possible to decrease/);
    expect(() => new Histogram(registry, "t_h", "h", [1], ["budget"]).observe(Number.NaN, { budget: "b" })).toThrow(TypeError);
  });
});
