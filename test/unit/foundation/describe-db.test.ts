import { describe, expect, it } from "vitest";
import { describeDb, isPostgresUrl } from "../../../src/store/open";

// Product 22: `--db` takes a file or a PostgreSQL URL; a URL's password never reaches a banner,
// an error line or a log, whatever the URL's shape (a failover URL lists several hosts).

describe("product 22: the database as printed", () => {
  it.each([
    ["kasa.db", "kasa.db", false],
    ["/var/lib/kasa/kasa.db", "/var/lib/kasa/kasa.db", false],
    ["postgres://kasa:s3cret@db:5432/kasa", "postgres://***@db:5432/kasa", true],
    ["postgresql://kasa:a/b%40c@db/kasa", "postgresql://***@db/kasa", true],
    ["POSTGRES://kasa:x@db/kasa", "POSTGRES://***@db/kasa", true],
    [
      "postgres://kasa@h1:5432,h2:5432/kasa?target_session_attrs=primary",
      "postgres://***@h1:5432,h2:5432/kasa?target_session_attrs=primary",
      true,
    ],
    ["postgres://kasa:pw@h1:5432,h2:5432/kasa", "postgres://***@h1:5432,h2:5432/kasa", true],
    // Product 27: a password given as a parameter, and one with an unencoded `@` (its tail was printed).
    ["postgres://db/kasa?user=kasa&password=s3cret&sslmode=require", "postgres://db/kasa?user=kasa&password=***&sslmode=require", true],
    ["postgres://db/kasa?PASSWORD=s3cret", "postgres://db/kasa?PASSWORD=***", true],
    ["postgres://kasa:p@ss@w0rd@db:5432/kasa", "postgres://***@db:5432/kasa", true],
    ["postgres://db:5432/kasa", "postgres://db:5432/kasa", true],
  ])("%s prints as %s", (db, printed, url) => {
    expect(describeDb(db)).toBe(printed);
    expect(isPostgresUrl(db)).toBe(url);
  });
});
