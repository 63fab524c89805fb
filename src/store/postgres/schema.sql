-- kasa on PostgreSQL 15 (issue 23, docs/postgresql.md): the translation of the repository's schema.sql,
-- which stays the single source of truth. test/pg/schema-parity.test.ts keeps the two in step: the
-- same tables, column names, NOT NULLs, primary keys, index names and trigger names, and the type
-- of every column by the rule below. A change to schema.sql without this file fails that test.
--
-- What differs, and why:
-- * INTEGER becomes bigint: times are epoch milliseconds and amounts kuruş, both past int4.
-- * The 0/1 flags (the columns schema.sql guards with `CHECK (x IN (0, 1))`) become boolean, and the
--   CHECK goes: PostgreSQL has the type. Flags without that CHECK (payments.three_d_started,
--   payment_attempts.counted) keep their numbers, as in SQLite.
-- * REAL becomes double precision, TEXT text (JSON lists stay text: the bytes are what kasa wrote).
-- * Every text column is COLLATE "C": comparisons and orderings by bytes, as SQLite's BINARY, so a
--   listing sorts the same on both stores whatever locale the database was created with.
-- * WITHOUT ROWID has no meaning here; panel_audit's AUTOINCREMENT key becomes an identity column.
-- * A PostgreSQL trigger runs a function: each SQLite trigger keeps its name and its WHEN, and its
--   body moves to a PL/pgSQL function (kasa_*), shared where the bodies are the same.
-- * Sums that SQLite would silently turn into REAL past 2^63 are computed in numeric before the
--   same ±2^62 clamp, so a huge amount clamps here too instead of failing with "bigint out of range".
--
-- Every statement is idempotent (IF NOT EXISTS, OR REPLACE, ON CONFLICT DO NOTHING): applying the
-- file to an up-to-date database changes nothing. It holds no BEGIN/COMMIT so the caller runs it in
-- its own transaction, under an advisory lock when several instances may start at once (two
-- concurrent CREATE TABLE IF NOT EXISTS of one name can still collide in the catalog).

CREATE TABLE IF NOT EXISTS meta (
  key   text COLLATE "C" PRIMARY KEY,
  value text COLLATE "C" NOT NULL
);

CREATE TABLE IF NOT EXISTS psps (
  id     text COLLATE "C" PRIMARY KEY,
  active boolean NOT NULL
);

CREATE TABLE IF NOT EXISTS connections (
  id              text COLLATE "C" PRIMARY KEY,
  psp_id          text COLLATE "C" NOT NULL REFERENCES psps(id),
  bank            text COLLATE "C" NOT NULL,
  active          boolean NOT NULL,
  accepts_foreign boolean NOT NULL,
  accepts_debit   boolean NOT NULL,
  per_tx_max      bigint,
  daily_max       bigint,
  weekly_max      bigint,
  monthly_max     bigint,
  window_minutes  bigint,
  window_max      bigint,
  bank_config     text COLLATE "C",    -- JSON settings of a non-sim bank (docs/banks.md `est` object)
  breaker         text COLLATE "C"     -- JSON breaker settings (docs/routing.md), NULL = defaults
);

CREATE TABLE IF NOT EXISTS partners (
  id                     text COLLATE "C" PRIMARY KEY,
  name                   text COLLATE "C" NOT NULL,
  status                 text COLLATE "C" NOT NULL CHECK (status IN ('active', 'suspended', 'closed')),
  allowed_redirect_hosts text COLLATE "C",               -- JSON array of lower-case hosts, NULL = no list
  amount_min             bigint,
  amount_max             bigint,
  card_attempt_limit     bigint NOT NULL DEFAULT 3,
  installment_cap        bigint,
  webhook_url            text COLLATE "C",
  webhook_secret         text COLLATE "C",
  rate_limit_multiplier  double precision NOT NULL DEFAULT 1,
  payout_account         text COLLATE "C",
  link_seq               bigint NOT NULL DEFAULT 0,  -- last partnerReference issued
  created_at_ms          bigint NOT NULL
);

CREATE TABLE IF NOT EXISTS api_keys (
  id            text COLLATE "C" PRIMARY KEY,
  partner_id    text COLLATE "C" NOT NULL REFERENCES partners(id),
  key_hash      text COLLATE "C" NOT NULL UNIQUE,          -- hex SHA-256 of the whole key; the key itself is never stored
  key_hint      text COLLATE "C" NOT NULL,                 -- "kasa_sk_…abcd" for listings
  created_at_ms bigint NOT NULL,
  revoked_at_ms bigint
);
CREATE INDEX IF NOT EXISTS api_keys_partner ON api_keys(partner_id);

CREATE TABLE IF NOT EXISTS terminals (
  id                    text COLLATE "C" PRIMARY KEY,
  partner_id            text COLLATE "C" NOT NULL REFERENCES partners(id),
  connection_id         text COLLATE "C" NOT NULL REFERENCES connections(id),
  active                boolean NOT NULL,
  commission_basis      text COLLATE "C" NOT NULL CHECK (commission_basis IN ('gross', 'net')),
  installments          text COLLATE "C" NOT NULL,          -- JSON array of counts
  rates                 text COLLATE "C" NOT NULL,          -- JSON array of {count, brand, onUs, rateBps, fixedFee}
  infrastructure        text COLLATE "C" NOT NULL CHECK (infrastructure IN ('standard', 'extended')),
  direct_collection     boolean NOT NULL,
  value_days            bigint NOT NULL DEFAULT 1,
  value_days_by_count   text COLLATE "C",                   -- JSON object count -> days, NULL = none
  bank                  text COLLATE "C",
  allowed_card_families text COLLATE "C",                   -- JSON array, NULL = all
  routing               text COLLATE "C"                    -- JSON routing of a router (docs/routing.md), NULL = plain
);
CREATE INDEX IF NOT EXISTS terminals_partner ON terminals(partner_id);

CREATE TABLE IF NOT EXISTS bins (
  bin          text COLLATE "C" PRIMARY KEY,
  brand        text COLLATE "C",
  family       text COLLATE "C" NOT NULL CHECK (family IN ('credit', 'debit', 'prepaid', 'foreign')),
  bank         text COLLATE "C",
  installments boolean NOT NULL
);

CREATE TABLE IF NOT EXISTS holds (
  partner_id text COLLATE "C" NOT NULL REFERENCES partners(id),
  reason     text COLLATE "C" NOT NULL CHECK (reason IN ('admin_hold')),
  since_ms   bigint NOT NULL,
  PRIMARY KEY (partner_id, reason)
);

CREATE TABLE IF NOT EXISTS agreements (
  partner_id     text COLLATE "C" NOT NULL REFERENCES partners(id),
  agreement_code text COLLATE "C" NOT NULL,
  version        text COLLATE "C" NOT NULL,
  agreement_name text COLLATE "C" NOT NULL,
  requirement    text COLLATE "C" NOT NULL CHECK (requirement IN ('consent', 'wet_signature')),
  kind           text COLLATE "C" NOT NULL CHECK (kind IN ('first', 'renewal')),
  deadline_at_ms bigint,
  accepted_at_ms bigint,
  created_at_ms  bigint NOT NULL,
  PRIMARY KEY (partner_id, agreement_code, version)
);

CREATE TABLE IF NOT EXISTS payment_links (
  id                 text COLLATE "C" PRIMARY KEY,
  partner_id         text COLLATE "C" NOT NULL REFERENCES partners(id),
  token              text COLLATE "C" NOT NULL UNIQUE,
  partner_reference  bigint NOT NULL,
  terminal_id        text COLLATE "C" NOT NULL REFERENCES terminals(id),
  status             text COLLATE "C" NOT NULL CHECK (status IN ('pending', 'launched', 'initiated', 'completed', 'expired', 'failed', 'cancelled')),
  amount             bigint NOT NULL,
  share_bps          bigint NOT NULL,
  description        text COLLATE "C",
  redirect_url       text COLLATE "C",
  allowed_counts     text COLLATE "C",            -- JSON array sorted, NULL = no restriction
  items              text COLLATE "C",            -- JSON array, NULL = none sent
  payer_name         text COLLATE "C",
  attempt_seq        bigint NOT NULL DEFAULT 0,  -- n of the last PL-<id>-<n> payment
  first_opened_at_ms bigint,
  last_opened_at_ms  bigint,
  expires_at_ms      bigint NOT NULL,
  created_at_ms      bigint NOT NULL,
  updated_at_ms      bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS links_by_partner ON payment_links(partner_id, created_at_ms DESC, partner_reference DESC);
CREATE INDEX IF NOT EXISTS links_by_partner_status ON payment_links(partner_id, status, created_at_ms DESC, partner_reference DESC);
CREATE INDEX IF NOT EXISTS links_open_by_expiry ON payment_links(expires_at_ms)
  WHERE status IN ('pending', 'launched', 'initiated', 'failed');

CREATE TABLE IF NOT EXISTS payments (
  code                text COLLATE "C" PRIMARY KEY,
  partner_id          text COLLATE "C" NOT NULL REFERENCES partners(id),
  terminal_id         text COLLATE "C" NOT NULL REFERENCES terminals(id),
  connection_id       text COLLATE "C" NOT NULL REFERENCES connections(id),
  partner_tx_code     text COLLATE "C" NOT NULL,
  channel             text COLLATE "C" NOT NULL CHECK (channel IN ('api', 'panel', 'link')),
  link_id             text COLLATE "C" REFERENCES payment_links(id),
  status              text COLLATE "C" NOT NULL CHECK (status IN ('initiated', 'captured', 'failed', 'expired', 'voided', 'refunded')),
  amount              bigint NOT NULL,
  principal           bigint NOT NULL,   -- commission base on net terminals: link base amount or the amount
  currency            text COLLATE "C" NOT NULL DEFAULT 'TRY',
  installment         bigint NOT NULL,
  description         text COLLATE "C",
  return_url          text COLLATE "C",
  payment_ref         text COLLATE "C" NOT NULL UNIQUE,
  three_d_started     bigint NOT NULL DEFAULT 0,  -- 1 once a 3D step began on this ref (crash-safe marker)
  attempts_counted    bigint NOT NULL DEFAULT 0,
  masked_pan          text COLLATE "C",
  card_brand          text COLLATE "C",
  card_family         text COLLATE "C",
  card_bank           text COLLATE "C",
  applied_rate_bps    bigint,
  applied_fixed_fee   bigint,
  commission_amount   bigint,
  net_to_partner      bigint,
  expected_value_date text COLLATE "C",
  bank_reference      text COLLATE "C",
  auth_code           text COLLATE "C",
  refunded_amount     bigint NOT NULL DEFAULT 0,  -- approved refunds and voids
  settled_day         text COLLATE "C",               -- Istanbul date of the day end that settled it
  payout_batch_id     text COLLATE "C",
  captured_at_ms      bigint,
  expires_at_ms       bigint NOT NULL,   -- end of the 3D window
  created_at_ms       bigint NOT NULL,
  updated_at_ms       bigint NOT NULL
);
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
  id            text COLLATE "C" PRIMARY KEY,
  payment_code  text COLLATE "C" NOT NULL REFERENCES payments(code),
  status        text COLLATE "C" NOT NULL CHECK (status IN ('starting', 'declined', 'acs', 'capturing', 'captured', 'failed')),
  counted       bigint NOT NULL DEFAULT 0,
  created_at_ms bigint NOT NULL,
  updated_at_ms bigint NOT NULL,
  terminal_id   text COLLATE "C" REFERENCES terminals(id),
  connection_id text COLLATE "C" REFERENCES connections(id),
  route         text COLLATE "C"  -- JSON {rule, order, skipped} of a router's choice (docs/routing.md)
);
CREATE INDEX IF NOT EXISTS attempts_by_payment ON payment_attempts(payment_code);
-- A database made before attempts recorded their terminal and connection (issue 29) gains the two
-- columns here, filled from each attempt's payment: until then every attempt went to its
-- payment's terminal and connection. Only when the column is missing, so a start does not scan.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM information_schema.columns
                 WHERE table_schema = current_schema() AND table_name = 'payment_attempts' AND column_name = 'connection_id') THEN
    ALTER TABLE payment_attempts ADD COLUMN IF NOT EXISTS terminal_id text COLLATE "C" REFERENCES terminals(id);
    ALTER TABLE payment_attempts ADD COLUMN IF NOT EXISTS connection_id text COLLATE "C" REFERENCES connections(id);
    UPDATE payment_attempts AS a SET terminal_id = p.terminal_id, connection_id = p.connection_id
      FROM payments AS p WHERE p.code = a.payment_code;
  END IF;
END $$;
-- Routing (docs/routing.md) added three nullable columns; a database made before gains them here.
ALTER TABLE connections ADD COLUMN IF NOT EXISTS breaker text COLLATE "C";
ALTER TABLE terminals ADD COLUMN IF NOT EXISTS routing text COLLATE "C";
ALTER TABLE payment_attempts ADD COLUMN IF NOT EXISTS route text COLLATE "C";

CREATE TABLE IF NOT EXISTS refunds (
  id                  text COLLATE "C" PRIMARY KEY,
  payment_code        text COLLATE "C" NOT NULL REFERENCES payments(code),
  partner_id          text COLLATE "C" NOT NULL REFERENCES partners(id),
  partner_refund_code text COLLATE "C" NOT NULL,
  method              text COLLATE "C" NOT NULL CHECK (method IN ('void', 'credit')),
  status              text COLLATE "C" NOT NULL CHECK (status IN ('pending', 'approved', 'declined')),
  amount              bigint NOT NULL,
  proc_return_code    text COLLATE "C",
  auth_code           text COLLATE "C",
  err_msg             text COLLATE "C",
  bank_reference      text COLLATE "C",
  payout_batch_id     text COLLATE "C",
  created_at_ms       bigint NOT NULL,
  updated_at_ms       bigint NOT NULL,
  UNIQUE (partner_id, partner_refund_code)
);
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
  day       text COLLATE "C" PRIMARY KEY,     -- Istanbul date that ended
  ran_at_ms bigint NOT NULL
);

CREATE TABLE IF NOT EXISTS payout_batches (
  id            text COLLATE "C" PRIMARY KEY,
  partner_id    text COLLATE "C" NOT NULL REFERENCES partners(id),
  day           text COLLATE "C" NOT NULL,
  amount        bigint NOT NULL,
  status        text COLLATE "C" NOT NULL CHECK (status IN ('pending', 'paid_out', 'failed')),
  created_at_ms bigint NOT NULL,
  updated_at_ms bigint NOT NULL,
  reference     text COLLATE "C",   -- the transfer's reference: the simulated bank's, or the operator's (`kasa payouts mark-paid`)
  UNIQUE (partner_id, day)
);
-- Settled captures not yet in a payout batch (docs/contract.md, Refunds), and the captures of a batch.
CREATE INDEX IF NOT EXISTS payments_payout_due ON payments(partner_id, expected_value_date)
  WHERE settled_day IS NOT NULL AND payout_batch_id IS NULL;
CREATE INDEX IF NOT EXISTS payments_by_payout_batch ON payments(payout_batch_id) WHERE payout_batch_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS payout_batches_pending ON payout_batches(created_at_ms) WHERE status = 'pending';

CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id                  text COLLATE "C" PRIMARY KEY,
  partner_id          text COLLATE "C" NOT NULL REFERENCES partners(id),
  type                text COLLATE "C" NOT NULL,
  body                text COLLATE "C" NOT NULL,     -- the exact bytes signed and sent on every attempt
  occurred_at_ms      bigint NOT NULL,
  status              text COLLATE "C" NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'dropped')),
  attempts            bigint NOT NULL DEFAULT 0,
  next_attempt_at_ms  bigint,
  first_attempt_at_ms bigint,
  created_at_ms       bigint NOT NULL,
  updated_at_ms       bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS deliveries_due ON webhook_deliveries(next_attempt_at_ms) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS deliveries_by_partner ON webhook_deliveries(partner_id, created_at_ms DESC);

CREATE TABLE IF NOT EXISTS webhook_attempts (
  delivery_id   text COLLATE "C" NOT NULL REFERENCES webhook_deliveries(id),
  n             bigint NOT NULL,
  started_at_ms bigint NOT NULL,
  http_status   bigint,
  latency_ms    bigint,
  outcome       text COLLATE "C" NOT NULL CHECK (outcome IN ('delivered', 'permanent', 'retry')),
  error         text COLLATE "C",
  PRIMARY KEY (delivery_id, n)
);

-- A table made before the per-session shards (issue 37: connection_usage, metric_counts) gains
-- `shard`, 0 for the rows it has, and a primary key of `cols` then `shard`; a table whose key
-- already has it is left alone, so running the file again changes nothing.
CREATE OR REPLACE FUNCTION kasa_shard_primary_key(tbl regclass, cols text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ADD COLUMN IF NOT EXISTS shard bigint NOT NULL DEFAULT 0', tbl);
  IF NOT EXISTS (SELECT 1 FROM pg_index AS i JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
      WHERE i.indrelid = tbl AND i.indisprimary AND a.attname = 'shard') THEN
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', tbl, tbl::text || '_pkey');
    EXECUTE format('ALTER TABLE %s ADD PRIMARY KEY (%s, shard)', tbl, cols);
  END IF;
END $$;

-- Running totals behind the docs/seed.md#partners-terminals-and-connections connection limits (issue 17); see schema.sql for the units.
-- Kept by the triggers below, in the transaction of every insert and status change of a payment.
-- PostgreSQL only (issue 37, docs/postgresql.md "Connection limits across instances"): `shard`
-- splits a bucket into rows per writing session (kasa_shard(), below), so two instances'
-- transactions adding to one connection's totals do not wait for each other's COMMIT on one row.
-- A total is the sum over the shards; SQLite's single writer needs no such split.
CREATE TABLE IF NOT EXISTS connection_usage (
  connection_id text COLLATE "C" NOT NULL,
  unit          text COLLATE "C" NOT NULL CHECK (unit IN ('s', 'm', 'h', 'd', 'w', 'mo')),
  key           bigint NOT NULL,
  amount        bigint NOT NULL,
  shard         bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (connection_id, unit, key, shard)
);
SELECT kasa_shard_primary_key('connection_usage', 'connection_id, unit, key');

-- PostgreSQL only (issue 37, docs/postgresql.md "Connection limits across instances"): room of a
-- connection's limits that one running instance (`holder`) has set aside for its own creates.
-- `amount` was granted under the connection lock with every total and every other reservation
-- counted; `used` grows in the transaction of each create admitted against it. Until it expires
-- (`expires_at_ms`, the database's clock) every other check counts `amount - used` as taken. The
-- grant holds only for the limits it was granted under (`terms`), from its app-clock instant
-- `granted_at_ms`, within the same Istanbul day, week and month.
-- The database's clock in epoch milliseconds: reservations expire on it, so instances whose own
-- clocks disagree still agree on which have expired.
CREATE OR REPLACE FUNCTION kasa_clock_ms() RETURNS bigint
LANGUAGE sql VOLATILE AS $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint $$;

CREATE TABLE IF NOT EXISTS connection_reservations (
  connection_id text COLLATE "C" NOT NULL,
  holder        text COLLATE "C" NOT NULL,
  amount        bigint NOT NULL,
  used          bigint NOT NULL,
  terms         text COLLATE "C" NOT NULL,
  granted_at_ms bigint NOT NULL,
  expires_at_ms bigint NOT NULL,
  PRIMARY KEY (connection_id, holder)
);

-- The six buckets a payment created at `ms` falls in: the same numbers as schema.sql's triggers.
-- bigint / bigint truncates toward zero as SQLite's integer division does. The month is read off
-- the UTC calendar of Istanbul wall time (UTC+3, no DST since 2016), as strftime does there.
CREATE OR REPLACE FUNCTION kasa_usage_keys(ms bigint) RETURNS TABLE (unit text, key bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT * FROM (VALUES
    ('s', ms / 1000),
    ('m', ms / 60000),
    ('h', ms / 3600000),
    ('d', (ms + 10800000) / 86400000),
    ('w', ((ms + 10800000) / 86400000 + 3) / 7),
    ('mo', EXTRACT(YEAR FROM (to_timestamp((ms + 10800000) / 1000) AT TIME ZONE 'UTC'))::bigint * 12
      + EXTRACT(MONTH FROM (to_timestamp((ms + 10800000) / 1000) AT TIME ZONE 'UTC'))::bigint - 1)
  ) AS k (unit, key)
$$;

-- The shard this session writes its running totals to (connection_usage, metric_counts): taken
-- from a sequence when the session first writes one, modulo 64, and kept for the session, so up to
-- 64 sessions opened one after another never share a row. (Until issue 37's fourth step it was the
-- backend pid mod 16, and of the eight sessions of two instances two often shared one, each then
-- waiting for the other's COMMIT.) A rolled-back transaction forgets the setting, and the session
-- takes the next number: any shard is correct, since only the sum over them is a total.
CREATE SEQUENCE IF NOT EXISTS kasa_session_shards;
CREATE OR REPLACE FUNCTION kasa_shard() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  shard text := current_setting('kasa.shard', true);
BEGIN
  IF shard IS NULL OR shard = '' THEN
    shard := (nextval('kasa_session_shards') % 64)::text;
    PERFORM set_config('kasa.shard', shard, false);
  END IF;
  RETURN shard::bigint;
END $$;

-- Adds `delta` to a payment's six buckets in this session's shard, clamped to ±2^62 as in SQLite:
-- no sum can overflow, and any total past 2^53 is over every limit anyway. A shard may hold a
-- negative amount (a status change made by another session than the insert): only the sum over
-- the shards is a total. PL/pgSQL, not SQL (issue 37): called from a
-- trigger, a SQL function planned its INSERT anew on every payment (two thirds of an insert's
-- time); PL/pgSQL keeps the plan for the session.
CREATE OR REPLACE FUNCTION kasa_add_usage(conn text, created_ms bigint, delta bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO connection_usage AS u (connection_id, unit, key, amount, shard)
  SELECT conn, k.unit, k.key, delta, kasa_shard() FROM kasa_usage_keys(created_ms) AS k
  ON CONFLICT (connection_id, unit, key, shard)
  DO UPDATE SET amount = GREATEST(LEAST(u.amount::numeric + EXCLUDED.amount, 4611686018427387904), -4611686018427387904)::bigint;
END $$;

CREATE OR REPLACE FUNCTION kasa_payments_usage_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM kasa_add_usage(NEW.connection_id, NEW.created_at_ms, NEW.amount);
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER payments_usage_insert AFTER INSERT ON payments
FOR EACH ROW WHEN (NEW.status IN ('initiated', 'captured'))
EXECUTE FUNCTION kasa_payments_usage_insert();

-- A status change that enters or leaves the counted states adds or takes back the amount.
CREATE OR REPLACE FUNCTION kasa_payments_usage_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM kasa_add_usage(NEW.connection_id, NEW.created_at_ms,
    CASE WHEN NEW.status IN ('initiated', 'captured') THEN NEW.amount ELSE -NEW.amount END);
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER payments_usage_status AFTER UPDATE OF status ON payments
FOR EACH ROW WHEN ((OLD.status IN ('initiated', 'captured')) <> (NEW.status IN ('initiated', 'captured')))
EXECUTE FUNCTION kasa_payments_usage_status();

-- A router moves a counted payment onto the connection of the member that serves its attempt
-- (docs/routing.md): the amount leaves the old connection's totals and joins the new one's.
CREATE OR REPLACE FUNCTION kasa_payments_usage_connection() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM kasa_add_usage(OLD.connection_id, OLD.created_at_ms, -OLD.amount);
  PERFORM kasa_add_usage(NEW.connection_id, NEW.created_at_ms, NEW.amount);
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER payments_usage_connection AFTER UPDATE OF connection_id ON payments
FOR EACH ROW WHEN (OLD.connection_id <> NEW.connection_id AND OLD.status IN ('initiated', 'captured')
  AND NEW.status IN ('initiated', 'captured'))
EXECUTE FUNCTION kasa_payments_usage_connection();

-- The counter the request caches compare with (issue 17); see schema.sql. Row-level triggers as in
-- SQLite: one bump per changed row. The bump locks the one row until commit, so transactions that
-- change the catalog take turns, as every writer does in SQLite.
CREATE TABLE IF NOT EXISTS catalog_version (
  id      bigint PRIMARY KEY CHECK (id = 1),
  version bigint NOT NULL
);
INSERT INTO catalog_version (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;
-- The NOTIFY reaches every instance LISTENing on `kasa_catalog` once the change commits (one per
-- transaction: PostgreSQL folds identical notifications), so each empties its catalog cache
-- (postgres/catalog-cache-pg.ts).
CREATE OR REPLACE FUNCTION kasa_bump_catalog_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE catalog_version SET version = version + 1 WHERE id = 1;
  PERFORM pg_notify('kasa_catalog', '');
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER psps_catalog_insert AFTER INSERT ON psps FOR EACH ROW EXECUTE FUNCTION kasa_bump_catalog_version();
CREATE OR REPLACE TRIGGER psps_catalog_update AFTER UPDATE ON psps FOR EACH ROW EXECUTE FUNCTION kasa_bump_catalog_version();
CREATE OR REPLACE TRIGGER psps_catalog_delete AFTER DELETE ON psps FOR EACH ROW EXECUTE FUNCTION kasa_bump_catalog_version();
CREATE OR REPLACE TRIGGER connections_catalog_insert AFTER INSERT ON connections FOR EACH ROW EXECUTE FUNCTION kasa_bump_catalog_version();
CREATE OR REPLACE TRIGGER connections_catalog_update AFTER UPDATE ON connections FOR EACH ROW EXECUTE FUNCTION kasa_bump_catalog_version();
CREATE OR REPLACE TRIGGER connections_catalog_delete AFTER DELETE ON connections FOR EACH ROW EXECUTE FUNCTION kasa_bump_catalog_version();
CREATE OR REPLACE TRIGGER terminals_catalog_insert AFTER INSERT ON terminals FOR EACH ROW EXECUTE FUNCTION kasa_bump_catalog_version();
CREATE OR REPLACE TRIGGER terminals_catalog_update AFTER UPDATE ON terminals FOR EACH ROW EXECUTE FUNCTION kasa_bump_catalog_version();
CREATE OR REPLACE TRIGGER terminals_catalog_delete AFTER DELETE ON terminals FOR EACH ROW EXECUTE FUNCTION kasa_bump_catalog_version();
CREATE OR REPLACE TRIGGER api_keys_catalog_insert AFTER INSERT ON api_keys FOR EACH ROW EXECUTE FUNCTION kasa_bump_catalog_version();
CREATE OR REPLACE TRIGGER api_keys_catalog_update AFTER UPDATE ON api_keys FOR EACH ROW EXECUTE FUNCTION kasa_bump_catalog_version();
CREATE OR REPLACE TRIGGER api_keys_catalog_delete AFTER DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION kasa_bump_catalog_version();
CREATE OR REPLACE TRIGGER partners_catalog_insert AFTER INSERT ON partners FOR EACH ROW EXECUTE FUNCTION kasa_bump_catalog_version();
-- `link_seq` counts the partner's links and is not cached: a change of it alone bumps nothing.
CREATE OR REPLACE TRIGGER partners_catalog_update AFTER UPDATE ON partners
FOR EACH ROW WHEN (NEW.link_seq IS NOT DISTINCT FROM OLD.link_seq) EXECUTE FUNCTION kasa_bump_catalog_version();
CREATE OR REPLACE TRIGGER partners_catalog_delete AFTER DELETE ON partners FOR EACH ROW EXECUTE FUNCTION kasa_bump_catalog_version();

-- `kasa webhooks tail` (issue 22) follows new deliveries and attempts by these, never by a scan.
CREATE INDEX IF NOT EXISTS deliveries_by_created ON webhook_deliveries(created_at_ms, id);
CREATE INDEX IF NOT EXISTS attempts_by_start ON webhook_attempts(started_at_ms);
-- The merchant panel (docs/panel.md): users of one partner each, server-side sessions (only the
-- SHA-256 of the cookie's id is stored), and the audit log of every panel action and login.
CREATE TABLE IF NOT EXISTS panel_users (
  id              text COLLATE "C" PRIMARY KEY,
  partner_id      text COLLATE "C" NOT NULL REFERENCES partners(id),
  email           text COLLATE "C" NOT NULL UNIQUE,           -- stored lower-case: one account per address
  role            text COLLATE "C" NOT NULL CHECK (role IN ('viewer', 'staff', 'admin')),
  password_hash   text COLLATE "C" NOT NULL,                  -- PHC string: $argon2id$ (Bun) or $scrypt$ (Node)
  status          text COLLATE "C" NOT NULL CHECK (status IN ('active', 'disabled')),
  failed_logins   bigint NOT NULL DEFAULT 0,
  locked_until_ms bigint,
  created_at_ms   bigint NOT NULL,
  updated_at_ms   bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS panel_users_by_partner ON panel_users(partner_id, email);

CREATE TABLE IF NOT EXISTS panel_sessions (
  id_hash         text COLLATE "C" PRIMARY KEY,
  user_id         text COLLATE "C" NOT NULL REFERENCES panel_users(id),
  csrf_token      text COLLATE "C" NOT NULL,
  created_at_ms   bigint NOT NULL,
  last_seen_at_ms bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS panel_sessions_by_user ON panel_sessions(user_id);

-- AUTOINCREMENT never reuses a number; an identity's sequence never does either. Unlike SQLite's,
-- a sequence is not rolled back, so a failed insert leaves a gap (readers page by `seq <`, gaps are fine).
CREATE TABLE IF NOT EXISTS panel_audit (
  seq        bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  partner_id text COLLATE "C" NOT NULL,
  at_ms      bigint NOT NULL,
  user_id    text COLLATE "C",                                 -- null: a login attempt for an unknown address
  email      text COLLATE "C" NOT NULL,
  action     text COLLATE "C" NOT NULL,
  target     text COLLATE "C",
  outcome    text COLLATE "C" NOT NULL,                        -- "ok" or the catalog code of the refusal
  ip         text COLLATE "C" NOT NULL
);
CREATE INDEX IF NOT EXISTS panel_audit_by_partner ON panel_audit(partner_id, seq DESC);

-- Issue 30: panel password checks that did not succeed, written before the hash runs (schema.sql).
CREATE TABLE IF NOT EXISTS panel_login_failures (
  seq    bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  email  text COLLATE "C" NOT NULL,
  ip     text COLLATE "C" NOT NULL,
  at_ms  bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS panel_login_failures_by_email ON panel_login_failures(email, at_ms);
CREATE INDEX IF NOT EXISTS panel_login_failures_by_age ON panel_login_failures(at_ms);

-- Issue 16 (docs/banks.md): the bank side of a card attempt; one capture request per attempt, ever.
CREATE TABLE IF NOT EXISTS bank_auths (
  attempt_id text COLLATE "C" PRIMARY KEY REFERENCES payment_attempts(id),
  sent_at_ms bigint NOT NULL
);

-- Follow-ups of a capture (`resolve`, `void`); due rows are the timer wheel's "capture-check".
CREATE TABLE IF NOT EXISTS capture_checks (
  attempt_id     text COLLATE "C" PRIMARY KEY REFERENCES payment_attempts(id),
  connection_id  text COLLATE "C" NOT NULL REFERENCES connections(id),
  kind           text COLLATE "C" NOT NULL CHECK (kind IN ('resolve', 'void')),
  amount         bigint NOT NULL,
  bank_reference text COLLATE "C",
  tries          bigint NOT NULL DEFAULT 0,
  due_at_ms      bigint,
  outcome        text COLLATE "C" CHECK (outcome IN ('captured', 'failed', 'voided', 'void_declined')),
  updated_at_ms  bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS capture_checks_due ON capture_checks(due_at_ms) WHERE due_at_ms IS NOT NULL;

-- docs/operating.md metrics (issue 20): state changes counted in the transaction of the change, so a unit
-- that rolls back counts nothing. The trigger names the family and the column whose value is the
-- label (`status`, or a webhook attempt's `outcome`); one function serves all five. The triggers are
-- deferred to COMMIT (issue 37): a count row is shared by every payment of every connection, and
-- counted at once its row lock was held from the first insert of a transaction to its end, so
-- every other transaction creating a payment (another instance's batch, another connection's)
-- waited for that one to commit. Deferred, the row is locked only while the transaction commits;
-- nothing reads the counts inside a unit, and a savepoint rolled back drops its deferred events too.
--
-- PostgreSQL only (issue 37, fourth step): `shard`, as connection_usage's. With one row per label,
-- every transaction creating a payment locked the same row at COMMIT and held it through its WAL
-- flush, so the commits of all instances ran one after another, one flush each; with a row per
-- session they commit side by side and share flushes. A count is the sum over the shards.
CREATE TABLE IF NOT EXISTS metric_counts (
  family text COLLATE "C" NOT NULL,
  label  text COLLATE "C" NOT NULL,
  n      bigint NOT NULL,
  shard  bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (family, label, shard)
);
SELECT kasa_shard_primary_key('metric_counts', 'family, label');
-- The counted column is read straight off NEW, not through to_jsonb(NEW) of the whole row (issue
-- 37: a third of the trigger's time on every payment). PL/pgSQL plans each statement of a trigger
-- function per table when it first runs, so NEW.outcome is never planned for payments.
CREATE OR REPLACE FUNCTION kasa_count_metric() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counted text;
BEGIN
  IF TG_ARGV[1] = 'outcome' THEN
    counted := NEW.outcome;
  ELSE
    counted := NEW.status;
  END IF;
  INSERT INTO metric_counts AS m (family, label, n, shard) VALUES (TG_ARGV[0], counted, 1, kasa_shard())
  ON CONFLICT (family, label, shard) DO UPDATE SET n = m.n + 1;
  RETURN NULL;
END $$;
-- A plain trigger cannot be replaced by a constraint trigger: dropped first (databases made before issue 37).
DROP TRIGGER IF EXISTS metric_payment_insert ON payments;
DROP TRIGGER IF EXISTS metric_payment_status ON payments;
DROP TRIGGER IF EXISTS metric_refund_insert ON refunds;
DROP TRIGGER IF EXISTS metric_refund_status ON refunds;
DROP TRIGGER IF EXISTS metric_delivery_attempt ON webhook_attempts;
CREATE CONSTRAINT TRIGGER metric_payment_insert AFTER INSERT ON payments DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW EXECUTE FUNCTION kasa_count_metric('payment', 'status');
CREATE CONSTRAINT TRIGGER metric_payment_status AFTER UPDATE OF status ON payments DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW WHEN (NEW.status <> OLD.status) EXECUTE FUNCTION kasa_count_metric('payment', 'status');
CREATE CONSTRAINT TRIGGER metric_refund_insert AFTER INSERT ON refunds DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW EXECUTE FUNCTION kasa_count_metric('refund', 'status');
CREATE CONSTRAINT TRIGGER metric_refund_status AFTER UPDATE OF status ON refunds DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW WHEN (NEW.status <> OLD.status) EXECUTE FUNCTION kasa_count_metric('refund', 'status');
CREATE CONSTRAINT TRIGGER metric_delivery_attempt AFTER INSERT ON webhook_attempts DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW EXECUTE FUNCTION kasa_count_metric('delivery', 'outcome');

-- `kasa check` (docs/operating.md) on PostgreSQL: an outbox body parsed as JSON, NULL when it is not JSON
-- (SQLite's json_valid; PostgreSQL 15 has neither IS JSON nor pg_input_is_valid).
CREATE OR REPLACE FUNCTION kasa_jsonb_or_null(body text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN body::jsonb;
EXCEPTION WHEN others THEN
  RETURN NULL;
END $$;

-- Reconciliation (docs/reconciliation.md): the translation of schema.sql's reconcile_* tables.
CREATE TABLE IF NOT EXISTS reconcile_runs (
  id             text COLLATE "C" PRIMARY KEY,
  connection_id  text COLLATE "C" NOT NULL REFERENCES connections(id),
  day            text COLLATE "C" NOT NULL,
  started_at_ms  bigint NOT NULL,
  finished_at_ms bigint NOT NULL,
  superseded_by  text COLLATE "C",
  counts         text NOT NULL
);
CREATE INDEX IF NOT EXISTS reconcile_runs_current ON reconcile_runs(day, connection_id) WHERE superseded_by IS NULL;
CREATE TABLE IF NOT EXISTS reconcile_findings (
  run_id         text COLLATE "C" NOT NULL REFERENCES reconcile_runs(id),
  seq            bigint NOT NULL,
  class          text COLLATE "C" NOT NULL CHECK (class IN ('amount_mismatch', 'bank_approved', 'bank_missing', 'unknown', 'not_in_kasa')),
  payment_code   text COLLATE "C",
  attempt_id     text COLLATE "C",
  refund_id      text COLLATE "C",
  kasa_status    text COLLATE "C",
  kasa_amount    bigint,
  bank_status    text COLLATE "C" NOT NULL CHECK (bank_status IN ('approved', 'declined', 'voided', 'refunded', 'none', 'unknown')),
  bank_amount    bigint,
  bank_reference text COLLATE "C",
  repair_action  text COLLATE "C" CHECK (repair_action IN ('void', 'credit')),
  repair_outcome text COLLATE "C" CHECK (repair_outcome IN ('approved', 'declined', 'unknown')),
  PRIMARY KEY (run_id, seq)
);
CREATE TABLE IF NOT EXISTS reconcile_repairs (
  attempt_id        text COLLATE "C" PRIMARY KEY REFERENCES payment_attempts(id),
  connection_id     text COLLATE "C" NOT NULL REFERENCES connections(id),
  action            text COLLATE "C" NOT NULL CHECK (action IN ('void', 'credit')),
  amount            bigint NOT NULL,
  capture_reference text COLLATE "C" NOT NULL,
  outcome           text COLLATE "C" CHECK (outcome IN ('approved', 'declined', 'unknown')),
  created_at_ms     bigint NOT NULL,
  updated_at_ms     bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS reconcile_leases (
  connection_id text COLLATE "C" PRIMARY KEY REFERENCES connections(id),
  holder        text COLLATE "C" NOT NULL,
  until_ms      bigint NOT NULL
);
