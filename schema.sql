-- kasa: the single DDL. Applied on open when PRAGMA user_version is below SCHEMA_VERSION
-- (src/store/migrate.ts). Times are epoch milliseconds (`*_ms`), amounts integer kuruş,
-- booleans 0/1, small lists JSON text. Card data (PAN, expiry, CVV) has no column anywhere.

CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS psps (
  id     TEXT PRIMARY KEY,
  active INTEGER NOT NULL CHECK (active IN (0, 1))
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS connections (
  id              TEXT PRIMARY KEY,
  psp_id          TEXT NOT NULL REFERENCES psps(id),
  bank            TEXT NOT NULL,
  active          INTEGER NOT NULL CHECK (active IN (0, 1)),
  accepts_foreign INTEGER NOT NULL CHECK (accepts_foreign IN (0, 1)),
  accepts_debit   INTEGER NOT NULL CHECK (accepts_debit IN (0, 1)),
  per_tx_max      INTEGER,
  daily_max       INTEGER,
  weekly_max      INTEGER,
  monthly_max     INTEGER,
  window_minutes  INTEGER,
  window_max      INTEGER,
  bank_config     TEXT,    -- JSON settings of a non-sim bank (docs/banks.md `est` object); added in version 5
  breaker         TEXT     -- JSON {failures, windowSeconds, cooldownSeconds} (docs/routing.md), NULL = defaults; version 9
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS partners (
  id                     TEXT PRIMARY KEY,
  name                   TEXT NOT NULL,
  status                 TEXT NOT NULL CHECK (status IN ('active', 'suspended', 'closed')),
  allowed_redirect_hosts TEXT,               -- JSON array of lower-case hosts, NULL = no list
  amount_min             INTEGER,
  amount_max             INTEGER,
  card_attempt_limit     INTEGER NOT NULL DEFAULT 3,
  installment_cap        INTEGER,
  webhook_url            TEXT,
  webhook_secret         TEXT,
  rate_limit_multiplier  REAL NOT NULL DEFAULT 1,
  payout_account         TEXT,
  link_seq               INTEGER NOT NULL DEFAULT 0,  -- last partnerReference issued
  created_at_ms          INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS api_keys (
  id            TEXT PRIMARY KEY,
  partner_id    TEXT NOT NULL REFERENCES partners(id),
  key_hash      TEXT NOT NULL UNIQUE,          -- hex SHA-256 of the whole key; the key itself is never stored
  key_hint      TEXT NOT NULL,                 -- "kasa_sk_…abcd" for listings
  created_at_ms INTEGER NOT NULL,
  revoked_at_ms INTEGER
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS api_keys_partner ON api_keys(partner_id);

CREATE TABLE IF NOT EXISTS terminals (
  id                    TEXT PRIMARY KEY,
  partner_id            TEXT NOT NULL REFERENCES partners(id),
  connection_id         TEXT NOT NULL REFERENCES connections(id),
  active                INTEGER NOT NULL CHECK (active IN (0, 1)),
  commission_basis      TEXT NOT NULL CHECK (commission_basis IN ('gross', 'net')),
  installments          TEXT NOT NULL,          -- JSON array of counts
  rates                 TEXT NOT NULL,          -- JSON array of {count, brand, onUs, rateBps, fixedFee}
  infrastructure        TEXT NOT NULL CHECK (infrastructure IN ('standard', 'extended')),
  direct_collection     INTEGER NOT NULL CHECK (direct_collection IN (0, 1)),
  value_days            INTEGER NOT NULL DEFAULT 1,
  value_days_by_count   TEXT,                   -- JSON object count -> days, NULL = none
  bank                  TEXT,
  allowed_card_families TEXT,                   -- JSON array, NULL = all
  -- JSON routing of a router (docs/routing.md), NULL on a plain terminal; version 9. A router keeps
  -- no rates or counts of its own; its connection_id is its fallback-first member's at seed time,
  -- only because the column is required: routing never reads it.
  routing               TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS terminals_partner ON terminals(partner_id);

CREATE TABLE IF NOT EXISTS bins (
  bin          TEXT PRIMARY KEY,
  brand        TEXT,
  family       TEXT NOT NULL CHECK (family IN ('credit', 'debit', 'prepaid', 'foreign')),
  bank         TEXT,
  installments INTEGER NOT NULL CHECK (installments IN (0, 1))
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS holds (
  partner_id TEXT NOT NULL REFERENCES partners(id),
  reason     TEXT NOT NULL CHECK (reason IN ('admin_hold')),
  since_ms   INTEGER NOT NULL,
  PRIMARY KEY (partner_id, reason)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS agreements (
  partner_id     TEXT NOT NULL REFERENCES partners(id),
  agreement_code TEXT NOT NULL,
  version        TEXT NOT NULL,
  agreement_name TEXT NOT NULL,
  requirement    TEXT NOT NULL CHECK (requirement IN ('consent', 'wet_signature')),
  kind           TEXT NOT NULL CHECK (kind IN ('first', 'renewal')),
  deadline_at_ms INTEGER,
  accepted_at_ms INTEGER,
  created_at_ms  INTEGER NOT NULL,
  PRIMARY KEY (partner_id, agreement_code, version)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS payment_links (
  id                 TEXT PRIMARY KEY,
  partner_id         TEXT NOT NULL REFERENCES partners(id),
  token              TEXT NOT NULL UNIQUE,
  partner_reference  INTEGER NOT NULL,
  terminal_id        TEXT NOT NULL REFERENCES terminals(id),
  status             TEXT NOT NULL CHECK (status IN ('pending', 'launched', 'initiated', 'completed', 'expired', 'failed', 'cancelled')),
  amount             INTEGER NOT NULL,
  share_bps          INTEGER NOT NULL,
  description        TEXT,
  redirect_url       TEXT,
  allowed_counts     TEXT,            -- JSON array sorted, NULL = no restriction
  items              TEXT,            -- JSON array, NULL = none sent
  payer_name         TEXT,
  attempt_seq        INTEGER NOT NULL DEFAULT 0,  -- n of the last PL-<id>-<n> payment
  first_opened_at_ms INTEGER,
  last_opened_at_ms  INTEGER,
  expires_at_ms      INTEGER NOT NULL,
  created_at_ms      INTEGER NOT NULL,
  updated_at_ms      INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS links_by_partner ON payment_links(partner_id, created_at_ms DESC, partner_reference DESC);
CREATE INDEX IF NOT EXISTS links_by_partner_status ON payment_links(partner_id, status, created_at_ms DESC, partner_reference DESC);
CREATE INDEX IF NOT EXISTS links_open_by_expiry ON payment_links(expires_at_ms)
  WHERE status IN ('pending', 'launched', 'initiated', 'failed');

CREATE TABLE IF NOT EXISTS payments (
  code                TEXT PRIMARY KEY,
  partner_id          TEXT NOT NULL REFERENCES partners(id),
  terminal_id         TEXT NOT NULL REFERENCES terminals(id),
  connection_id       TEXT NOT NULL REFERENCES connections(id),
  partner_tx_code     TEXT NOT NULL,
  channel             TEXT NOT NULL CHECK (channel IN ('api', 'panel', 'link')),
  link_id             TEXT REFERENCES payment_links(id),
  status              TEXT NOT NULL CHECK (status IN ('initiated', 'captured', 'failed', 'expired', 'voided', 'refunded')),
  amount              INTEGER NOT NULL,
  principal           INTEGER NOT NULL,   -- commission base on net terminals: link base amount or the amount
  currency            TEXT NOT NULL DEFAULT 'TRY',
  installment         INTEGER NOT NULL,
  description         TEXT,
  return_url          TEXT,
  payment_ref         TEXT NOT NULL UNIQUE,
  three_d_started     INTEGER NOT NULL DEFAULT 0,  -- 1 once a 3D step began on this ref (crash-safe marker)
  attempts_counted    INTEGER NOT NULL DEFAULT 0,
  masked_pan          TEXT,
  card_brand          TEXT,
  card_family         TEXT,
  card_bank           TEXT,
  applied_rate_bps    INTEGER,
  applied_fixed_fee   INTEGER,
  commission_amount   INTEGER,
  net_to_partner      INTEGER,
  expected_value_date TEXT,
  bank_reference      TEXT,
  auth_code           TEXT,
  refunded_amount     INTEGER NOT NULL DEFAULT 0,  -- approved refunds and voids
  settled_day         TEXT,               -- Istanbul date of the day end that settled it
  payout_batch_id     TEXT,
  captured_at_ms      INTEGER,
  expires_at_ms       INTEGER NOT NULL,   -- end of the 3D window
  created_at_ms       INTEGER NOT NULL,
  updated_at_ms       INTEGER NOT NULL
) WITHOUT ROWID;
-- The backstop of 4.5 idempotency: one active payment per partner and code.
CREATE UNIQUE INDEX IF NOT EXISTS payments_active_tx_code ON payments(partner_id, partner_tx_code)
  WHERE status NOT IN ('failed', 'expired');
CREATE INDEX IF NOT EXISTS payments_by_tx_code ON payments(partner_id, partner_tx_code, created_at_ms DESC);
CREATE INDEX IF NOT EXISTS payments_initiated_by_expiry ON payments(expires_at_ms) WHERE status = 'initiated';
CREATE INDEX IF NOT EXISTS payments_by_connection ON payments(connection_id, created_at_ms);
CREATE INDEX IF NOT EXISTS payments_unsettled ON payments(captured_at_ms) WHERE settled_day IS NULL AND captured_at_ms IS NOT NULL;
CREATE INDEX IF NOT EXISTS payments_by_link ON payments(link_id) WHERE link_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS payments_by_partner ON payments(partner_id, created_at_ms DESC);
-- The panel's dashboard (docs/panel.md, Dashboard; version 10): a partner's captures by instant, and
-- its captures no payout batch has taken yet, each read from the index alone.
CREATE INDEX IF NOT EXISTS payments_captured_by_partner ON payments(partner_id, captured_at_ms, amount)
  WHERE captured_at_ms IS NOT NULL;
CREATE INDEX IF NOT EXISTS payments_unpaid_by_partner ON payments(partner_id, expected_value_date, status, net_to_partner)
  WHERE payout_batch_id IS NULL AND captured_at_ms IS NOT NULL;

CREATE TABLE IF NOT EXISTS payment_attempts (
  id            TEXT PRIMARY KEY,
  payment_code  TEXT NOT NULL REFERENCES payments(code),
  status        TEXT NOT NULL CHECK (status IN ('starting', 'declined', 'acs', 'capturing', 'captured', 'failed')),
  counted       INTEGER NOT NULL DEFAULT 0,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  -- The terminal that served the attempt and the connection whose bank it went to, chosen once at
  -- 3D start (domain/payments/routing.ts); every later bank call of the attempt follows them.
  -- Nullable only because a database of an older kasa gains them by ALTER TABLE (filled from the
  -- attempt's payment, migrate.ts); kasa writes both on every attempt.
  terminal_id   TEXT REFERENCES terminals(id),
  connection_id TEXT REFERENCES connections(id),
  -- JSON {rule, order, skipped: [{terminalId, reason}]}: how a router chose the attempt's member
  -- (docs/routing.md); NULL for an attempt of a plain terminal. Version 9.
  route         TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS attempts_by_payment ON payment_attempts(payment_code);

CREATE TABLE IF NOT EXISTS refunds (
  id                  TEXT PRIMARY KEY,
  payment_code        TEXT NOT NULL REFERENCES payments(code),
  partner_id          TEXT NOT NULL REFERENCES partners(id),
  partner_refund_code TEXT NOT NULL,
  method              TEXT NOT NULL CHECK (method IN ('void', 'credit')),
  status              TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'declined')),
  amount              INTEGER NOT NULL,
  proc_return_code    TEXT,
  auth_code           TEXT,
  err_msg             TEXT,
  bank_reference      TEXT,
  payout_batch_id     TEXT,
  created_at_ms       INTEGER NOT NULL,
  updated_at_ms       INTEGER NOT NULL,
  UNIQUE (partner_id, partner_refund_code)
) WITHOUT ROWID;
-- A pending refund blocks new ones on the payment (docs/contract.md, Refunds); the index makes it a fact.
CREATE UNIQUE INDEX IF NOT EXISTS refunds_one_pending ON refunds(payment_code) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS refunds_by_payment ON refunds(payment_code, created_at_ms);
-- A partner's refunds by creation, for the panel's dashboard (version 10).
CREATE INDEX IF NOT EXISTS refunds_by_partner ON refunds(partner_id, created_at_ms);
-- Approved credit refunds a day end has not netted yet, and the refunds of a payout batch.
CREATE INDEX IF NOT EXISTS refunds_payout_due ON refunds(partner_id, updated_at_ms)
  WHERE method = 'credit' AND status = 'approved' AND payout_batch_id IS NULL;
CREATE INDEX IF NOT EXISTS refunds_by_payout_batch ON refunds(payout_batch_id) WHERE payout_batch_id IS NOT NULL;

CREATE TABLE IF NOT EXISTS dayends (
  day       TEXT PRIMARY KEY,     -- Istanbul date that ended
  ran_at_ms INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS payout_batches (
  id            TEXT PRIMARY KEY,
  partner_id    TEXT NOT NULL REFERENCES partners(id),
  day           TEXT NOT NULL,
  amount        INTEGER NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('pending', 'paid_out', 'failed')),
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  reference     TEXT,   -- the transfer's reference: the simulated bank's, or the operator's (`kasa payouts mark-paid`); version 5
  UNIQUE (partner_id, day)
) WITHOUT ROWID;
-- Settled captures not yet in a payout batch (docs/contract.md, Refunds), and the captures of a batch.
CREATE INDEX IF NOT EXISTS payments_payout_due ON payments(partner_id, expected_value_date)
  WHERE settled_day IS NOT NULL AND payout_batch_id IS NULL;
CREATE INDEX IF NOT EXISTS payments_by_payout_batch ON payments(payout_batch_id) WHERE payout_batch_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS payout_batches_pending ON payout_batches(created_at_ms) WHERE status = 'pending';

CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id                  TEXT PRIMARY KEY,
  partner_id          TEXT NOT NULL REFERENCES partners(id),
  type                TEXT NOT NULL,
  body                TEXT NOT NULL,     -- the exact bytes signed and sent on every attempt
  occurred_at_ms      INTEGER NOT NULL,
  status              TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'dropped')),
  attempts            INTEGER NOT NULL DEFAULT 0,
  next_attempt_at_ms  INTEGER,
  first_attempt_at_ms INTEGER,
  created_at_ms       INTEGER NOT NULL,
  updated_at_ms       INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS deliveries_due ON webhook_deliveries(next_attempt_at_ms) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS deliveries_by_partner ON webhook_deliveries(partner_id, created_at_ms DESC);

CREATE TABLE IF NOT EXISTS webhook_attempts (
  delivery_id   TEXT NOT NULL REFERENCES webhook_deliveries(id),
  n             INTEGER NOT NULL,
  started_at_ms INTEGER NOT NULL,
  http_status   INTEGER,
  latency_ms    INTEGER,
  outcome       TEXT NOT NULL CHECK (outcome IN ('delivered', 'permanent', 'retry')),
  error         TEXT,
  PRIMARY KEY (delivery_id, n)
) WITHOUT ROWID;

-- Running totals behind the docs/seed.md#partners-terminals-and-connections connection limits (issue 17): the amounts of a connection's
-- `initiated` and `captured` payments per creation period, so a limit check reads a handful of rows
-- instead of summing the month's payments. Units: 's' second, 'm' minute, 'h' hour (UTC epoch
-- numbers), 'd' Istanbul day, 'w' ISO week (Monday 00:00 Istanbul), 'mo' Istanbul month
-- (year * 12 + month - 1). Kept by the triggers below, in the same transaction as every insert and
-- status change of a payment, whatever code path makes it; the rolling window sums the finest
-- buckets inside it and scans the payments of its first partial second.
CREATE TABLE IF NOT EXISTS connection_usage (
  connection_id TEXT NOT NULL,
  unit          TEXT NOT NULL CHECK (unit IN ('s', 'm', 'h', 'd', 'w', 'mo')),
  key           INTEGER NOT NULL,
  amount        INTEGER NOT NULL,
  PRIMARY KEY (connection_id, unit, key)
) WITHOUT ROWID;

CREATE TRIGGER IF NOT EXISTS payments_usage_insert AFTER INSERT ON payments
WHEN NEW.status IN ('initiated', 'captured')
BEGIN
  INSERT INTO connection_usage (connection_id, unit, key, amount) VALUES
    (NEW.connection_id, 's', NEW.created_at_ms / 1000, NEW.amount),
    (NEW.connection_id, 'm', NEW.created_at_ms / 60000, NEW.amount),
    (NEW.connection_id, 'h', NEW.created_at_ms / 3600000, NEW.amount),
    (NEW.connection_id, 'd', (NEW.created_at_ms + 10800000) / 86400000, NEW.amount),
    (NEW.connection_id, 'w', ((NEW.created_at_ms + 10800000) / 86400000 + 3) / 7, NEW.amount),
    (NEW.connection_id, 'mo',
      CAST(strftime('%Y', (NEW.created_at_ms + 10800000) / 1000, 'unixepoch') AS INTEGER) * 12
        + CAST(strftime('%m', (NEW.created_at_ms + 10800000) / 1000, 'unixepoch') AS INTEGER) - 1, NEW.amount)
  -- Clamped to ±2^62 so no sum can overflow: any total past 2^53 is over every limit anyway.
  ON CONFLICT (connection_id, unit, key)
  DO UPDATE SET amount = MAX(MIN(amount + excluded.amount, 4611686018427387904), -4611686018427387904);
END;

-- A status change that enters or leaves the counted states adds or takes back the amount.
CREATE TRIGGER IF NOT EXISTS payments_usage_status AFTER UPDATE OF status ON payments
WHEN (OLD.status IN ('initiated', 'captured')) <> (NEW.status IN ('initiated', 'captured'))
BEGIN
  INSERT INTO connection_usage (connection_id, unit, key, amount)
  SELECT NEW.connection_id, u.unit, u.key, CASE WHEN NEW.status IN ('initiated', 'captured') THEN NEW.amount ELSE -NEW.amount END
  FROM (
    SELECT 's' AS unit, NEW.created_at_ms / 1000 AS key UNION ALL
    SELECT 'm', NEW.created_at_ms / 60000 UNION ALL
    SELECT 'h', NEW.created_at_ms / 3600000 UNION ALL
    SELECT 'd', (NEW.created_at_ms + 10800000) / 86400000 UNION ALL
    SELECT 'w', ((NEW.created_at_ms + 10800000) / 86400000 + 3) / 7 UNION ALL
    SELECT 'mo', CAST(strftime('%Y', (NEW.created_at_ms + 10800000) / 1000, 'unixepoch') AS INTEGER) * 12
      + CAST(strftime('%m', (NEW.created_at_ms + 10800000) / 1000, 'unixepoch') AS INTEGER) - 1
  ) AS u WHERE true
  -- Clamped to ±2^62 so no sum can overflow: any total past 2^53 is over every limit anyway.
  ON CONFLICT (connection_id, unit, key)
  DO UPDATE SET amount = MAX(MIN(amount + excluded.amount, 4611686018427387904), -4611686018427387904);
END;

-- A router moves a counted payment onto the connection of the member that serves its attempt
-- (docs/routing.md): the amount leaves the old connection's totals and joins the new one's.
CREATE TRIGGER IF NOT EXISTS payments_usage_connection AFTER UPDATE OF connection_id ON payments
WHEN OLD.connection_id <> NEW.connection_id AND OLD.status IN ('initiated', 'captured') AND NEW.status IN ('initiated', 'captured')
BEGIN
  INSERT INTO connection_usage (connection_id, unit, key, amount)
  SELECT c.id, u.unit, u.key, c.sign * NEW.amount
  FROM (SELECT OLD.connection_id AS id, -1 AS sign UNION ALL SELECT NEW.connection_id, 1) AS c, (
    SELECT 's' AS unit, NEW.created_at_ms / 1000 AS key UNION ALL
    SELECT 'm', NEW.created_at_ms / 60000 UNION ALL
    SELECT 'h', NEW.created_at_ms / 3600000 UNION ALL
    SELECT 'd', (NEW.created_at_ms + 10800000) / 86400000 UNION ALL
    SELECT 'w', ((NEW.created_at_ms + 10800000) / 86400000 + 3) / 7 UNION ALL
    SELECT 'mo', CAST(strftime('%Y', (NEW.created_at_ms + 10800000) / 1000, 'unixepoch') AS INTEGER) * 12
      + CAST(strftime('%m', (NEW.created_at_ms + 10800000) / 1000, 'unixepoch') AS INTEGER) - 1
  ) AS u WHERE true
  ON CONFLICT (connection_id, unit, key)
  DO UPDATE SET amount = MAX(MIN(amount + excluded.amount, 4611686018427387904), -4611686018427387904);
END;

-- A counter every change of the rows that requests cache (partners, API keys, terminals,
-- connections, PSPs) bumps, by trigger, in the changing transaction, whichever process writes
-- (issue 17). Readers compare it with the version their cache was filled at: a key revoked or a
-- terminal changed by the CLI is seen by the very next request. `link_seq` is a counter of the
-- partner's links, not cached data: bumping on it would empty the caches at every link create.
CREATE TABLE IF NOT EXISTS catalog_version (
  id      INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
);
INSERT INTO catalog_version (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;
CREATE TRIGGER IF NOT EXISTS psps_catalog_insert AFTER INSERT ON psps BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS psps_catalog_update AFTER UPDATE ON psps BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS psps_catalog_delete AFTER DELETE ON psps BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS connections_catalog_insert AFTER INSERT ON connections BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS connections_catalog_update AFTER UPDATE ON connections BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS connections_catalog_delete AFTER DELETE ON connections BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS terminals_catalog_insert AFTER INSERT ON terminals BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS terminals_catalog_update AFTER UPDATE ON terminals BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS terminals_catalog_delete AFTER DELETE ON terminals BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS api_keys_catalog_insert AFTER INSERT ON api_keys BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS api_keys_catalog_update AFTER UPDATE ON api_keys BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS api_keys_catalog_delete AFTER DELETE ON api_keys BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS partners_catalog_insert AFTER INSERT ON partners BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS partners_catalog_update AFTER UPDATE ON partners WHEN NEW.link_seq IS OLD.link_seq BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS partners_catalog_delete AFTER DELETE ON partners BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;

-- `kasa webhooks tail` (issue 22) follows new deliveries and attempts by these, never by a scan.
CREATE INDEX IF NOT EXISTS deliveries_by_created ON webhook_deliveries(created_at_ms, id);
CREATE INDEX IF NOT EXISTS attempts_by_start ON webhook_attempts(started_at_ms);
-- The merchant panel (docs/panel.md): users of one partner each, server-side sessions (only the
-- SHA-256 of the cookie's id is stored), and the audit log of every panel action and login.
CREATE TABLE IF NOT EXISTS panel_users (
  id              TEXT PRIMARY KEY,
  partner_id      TEXT NOT NULL REFERENCES partners(id),
  email           TEXT NOT NULL UNIQUE,           -- stored lower-case: one account per address
  role            TEXT NOT NULL CHECK (role IN ('viewer', 'staff', 'admin')),
  password_hash   TEXT NOT NULL,                  -- PHC string: $argon2id$ (Bun) or $scrypt$ (Node)
  status          TEXT NOT NULL CHECK (status IN ('active', 'disabled')),
  failed_logins   INTEGER NOT NULL DEFAULT 0,
  locked_until_ms INTEGER,
  created_at_ms   INTEGER NOT NULL,
  updated_at_ms   INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS panel_users_by_partner ON panel_users(partner_id, email);

CREATE TABLE IF NOT EXISTS panel_sessions (
  id_hash         TEXT PRIMARY KEY,
  user_id         TEXT NOT NULL REFERENCES panel_users(id),
  csrf_token      TEXT NOT NULL,
  created_at_ms   INTEGER NOT NULL,
  last_seen_at_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS panel_sessions_by_user ON panel_sessions(user_id);

CREATE TABLE IF NOT EXISTS panel_audit (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  partner_id TEXT NOT NULL,
  at_ms      INTEGER NOT NULL,
  user_id    TEXT,                                 -- null: a login attempt for an unknown address
  email      TEXT NOT NULL,
  action     TEXT NOT NULL,
  target     TEXT,
  outcome    TEXT NOT NULL,                        -- "ok" or the catalog code of the refusal
  ip         TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS panel_audit_by_partner ON panel_audit(partner_id, seq DESC);

-- Issue 30: one row per panel password check that did not succeed, keyed by the address typed
-- (known or not, so an unknown address answers like a known one). The row is written BEFORE the
-- password hash runs and removed when the password was right, so checks running at the same time
-- all count; a lock is 5 rows of one (email, ip) within 15 minutes, the slowdown 50 rows of one
-- email within an hour (docs/panel.md, Getting in). Rows older than an hour are pruned.
CREATE TABLE IF NOT EXISTS panel_login_failures (
  seq    INTEGER PRIMARY KEY AUTOINCREMENT,
  email  TEXT NOT NULL,
  ip     TEXT NOT NULL,
  at_ms  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS panel_login_failures_by_email ON panel_login_failures(email, at_ms);
CREATE INDEX IF NOT EXISTS panel_login_failures_by_age ON panel_login_failures(at_ms);

-- Issue 16 (docs/banks.md): the bank side of a card attempt.
-- One capture request (EST `Auth`) per attempt, ever: the row is written in the unit that moves the
-- attempt to `capturing`, before the bank is called, and its key refuses a second one.
CREATE TABLE IF NOT EXISTS bank_auths (
  attempt_id TEXT PRIMARY KEY REFERENCES payment_attempts(id),
  sent_at_ms INTEGER NOT NULL
) WITHOUT ROWID;

-- Follow-ups of a capture: `resolve` asks the bank's status for an attempt whose capture answer was
-- lost or unknown (never re-sending Auth); `void` cancels a capture the bank approved after the
-- payment could no longer take it. Due rows (due_at_ms set) are the timer wheel's "capture-check".
CREATE TABLE IF NOT EXISTS capture_checks (
  attempt_id     TEXT PRIMARY KEY REFERENCES payment_attempts(id),
  connection_id  TEXT NOT NULL REFERENCES connections(id),
  kind           TEXT NOT NULL CHECK (kind IN ('resolve', 'void')),
  amount         INTEGER NOT NULL,
  bank_reference TEXT,
  tries          INTEGER NOT NULL DEFAULT 0,
  due_at_ms      INTEGER,
  outcome        TEXT CHECK (outcome IN ('captured', 'failed', 'voided', 'void_declined')),
  updated_at_ms  INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS capture_checks_due ON capture_checks(due_at_ms) WHERE due_at_ms IS NOT NULL;

-- docs/operating.md metrics (issue 20): state changes counted by triggers in the transaction of the change,
-- so a unit that rolls back counts nothing. `payment` and `refund` count the state entered (creation
-- included); `delivery` counts webhook attempts by outcome. Counted since schema version 6.
CREATE TABLE IF NOT EXISTS metric_counts (
  family TEXT NOT NULL,
  label  TEXT NOT NULL,
  n      INTEGER NOT NULL,
  PRIMARY KEY (family, label)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS metric_payment_insert AFTER INSERT ON payments BEGIN
  INSERT INTO metric_counts (family, label, n) VALUES ('payment', NEW.status, 1) ON CONFLICT (family, label) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS metric_payment_status AFTER UPDATE OF status ON payments WHEN NEW.status <> OLD.status BEGIN
  INSERT INTO metric_counts (family, label, n) VALUES ('payment', NEW.status, 1) ON CONFLICT (family, label) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS metric_refund_insert AFTER INSERT ON refunds BEGIN
  INSERT INTO metric_counts (family, label, n) VALUES ('refund', NEW.status, 1) ON CONFLICT (family, label) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS metric_refund_status AFTER UPDATE OF status ON refunds WHEN NEW.status <> OLD.status BEGIN
  INSERT INTO metric_counts (family, label, n) VALUES ('refund', NEW.status, 1) ON CONFLICT (family, label) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS metric_delivery_attempt AFTER INSERT ON webhook_attempts BEGIN
  INSERT INTO metric_counts (family, label, n) VALUES ('delivery', NEW.outcome, 1) ON CONFLICT (family, label) DO UPDATE SET n = n + 1;
END;

-- Reconciliation (docs/reconciliation.md, schema version 9): each run asks a connection's bank
-- about one Istanbul day and is stored with its findings; a later run of the same connection and
-- day supersedes it. Findings name payments, attempts and refunds without foreign keys: a
-- `not_in_kasa` order has none of them.
CREATE TABLE IF NOT EXISTS reconcile_runs (
  id             TEXT PRIMARY KEY,
  connection_id  TEXT NOT NULL REFERENCES connections(id),
  day            TEXT NOT NULL,
  started_at_ms  INTEGER NOT NULL,
  finished_at_ms INTEGER NOT NULL,
  superseded_by  TEXT,
  counts         TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS reconcile_runs_current ON reconcile_runs(day, connection_id) WHERE superseded_by IS NULL;
CREATE TABLE IF NOT EXISTS reconcile_findings (
  run_id         TEXT NOT NULL REFERENCES reconcile_runs(id),
  seq            INTEGER NOT NULL,
  class          TEXT NOT NULL CHECK (class IN ('amount_mismatch', 'bank_approved', 'bank_missing', 'unknown', 'not_in_kasa')),
  payment_code   TEXT,
  attempt_id     TEXT,
  refund_id      TEXT,
  kasa_status    TEXT,
  kasa_amount    INTEGER,
  bank_status    TEXT NOT NULL CHECK (bank_status IN ('approved', 'declined', 'voided', 'refunded', 'none', 'unknown')),
  bank_amount    INTEGER,
  bank_reference TEXT,
  repair_action  TEXT CHECK (repair_action IN ('void', 'credit')),
  repair_outcome TEXT CHECK (repair_outcome IN ('approved', 'declined', 'unknown')),
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
-- A repair of a `bank_approved` order, recorded before the bank is called (outcome NULL until it
-- answers), so a crash never sends one twice: the next run asks the bank first.
CREATE TABLE IF NOT EXISTS reconcile_repairs (
  attempt_id        TEXT PRIMARY KEY REFERENCES payment_attempts(id),
  connection_id     TEXT NOT NULL REFERENCES connections(id),
  action            TEXT NOT NULL CHECK (action IN ('void', 'credit')),
  amount            INTEGER NOT NULL,
  capture_reference TEXT NOT NULL,
  outcome           TEXT CHECK (outcome IN ('approved', 'declined', 'unknown')),
  created_at_ms     INTEGER NOT NULL,
  updated_at_ms     INTEGER NOT NULL
) WITHOUT ROWID;
-- Two runs of one connection never overlap: a run holds its connection's lease (wall-clock expiry,
-- renewed as it goes, so a crashed holder's lease runs out) across processes and instances.
CREATE TABLE IF NOT EXISTS reconcile_leases (
  connection_id TEXT PRIMARY KEY REFERENCES connections(id),
  holder        TEXT NOT NULL,
  until_ms      INTEGER NOT NULL
) WITHOUT ROWID;
