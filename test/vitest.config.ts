import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The config lives under test/ so the top level holds only what the project needs (issue 2).
const root = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig({
  root,
  // Bun imports schema.sql natively as text (that embeds it in the binary); vite needs this.
  plugins: [
    {
      name: "sql-as-text",
      enforce: "pre",
      load(id) {
        return id.endsWith(".sql") ? `export default ${JSON.stringify(readFileSync(id, "utf8"))};` : undefined;
      },
    },
  ],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/{unit,api,cli}/**/*.test.ts"],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The unit and CLI tests alone: what Bun runs beside the API suite on PostgreSQL
        // (npm run test:bun), so the API suite runs once per store, each on one runtime.
        extends: true,
        test: {
          name: "core",
          include: ["test/{unit,cli}/**/*.test.ts"],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        // Real Chromium against an in-process kasa: run once, under Node (npm run test:node); the
        // server code they drive runs on both runtimes in the unit and API projects.
        extends: true,
        test: { name: "browser", include: ["test/browser/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 120_000 },
      },
      {
        extends: true,
        test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 120_000 },
      },
      {
        // The PostgreSQL store (issue 23): one throw-away cluster for the run (its global setup
        // starts it, installing Debian's postgresql first on a machine without it), a database per test.
        extends: true,
        // Test files share their worker's modules (isolate: false): no test here changes module
        // state, and importing kasa anew for every file was a third of the project's time.
        test: {
          name: "pg",
          isolate: false,
          include: ["test/pg/**/*.test.ts"],
          globalSetup: ["test/pg/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Issue 23: the API suite again, on PostgreSQL, in npm test under Bun (npm run test:bun):
        // every harness on a database its worker keeps, emptied between harnesses; the cluster
        // answers commits before its WAL flush (durability is the failover test's business); test
        // files share their worker's modules (isolate: false, as the pg project; the same files run
        // isolated on SQLite under Node). Left out: what only a SQLite file has (query plans, the
        // bytes of the file on disk).
        extends: true,
        test: {
          name: "api-pg",
          isolate: false,
          include: ["test/api/**/*.test.ts"],
          exclude: ["test/api/payment-links-list-scale.test.ts", "test/api/handoff-card-data.test.ts"],
          globalSetup: ["test/pg/global-setup.ts"],
          env: { KASA_TEST_STORE: "postgres" },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
