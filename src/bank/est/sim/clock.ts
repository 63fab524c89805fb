// Europe/Istanbul wall time. Türkiye has kept UTC+03:00 all year since September 2016, so a fixed
// offset gives the same answer as the tz database and behaves the same on Node and Bun.

const OFFSET_MS = 3 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Days since the epoch in Istanbul: two instants with the same number share a calendar day. */
export const istanbulDay = (ms: number): number => Math.floor((ms + OFFSET_MS) / DAY_MS);

const parts = (ms: number) => {
  const d = new Date(ms + OFFSET_MS);
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return {
    date: `${p(d.getUTCFullYear(), 4)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}`,
    dashed: `${p(d.getUTCFullYear(), 4)}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}`,
    time: `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`,
    millis: p(d.getUTCMilliseconds(), 3),
  };
};

/** `YYYYMMDD HH:MM:SS`, EST's TRXDATE / EXTRA_TRXDATE. */
export const trxDate = (ms: number): string => {
  const t = parts(ms);
  return `${t.date} ${t.time}`;
};

/** `YYYY-MM-DD HH:MM:SS.mmm`, the AUTH_DTTM of ORDERSTATUS and ORDERHISTORY. */
export const authDttm = (ms: number): string => {
  const t = parts(ms);
  return `${t.dashed} ${t.time}.${t.millis}`;
};

/** Year's last two digits and day of year, for TransId. */
export const yyddd = (ms: number): string => {
  const d = new Date(ms + OFFSET_MS);
  const start = Date.UTC(d.getUTCFullYear(), 0, 1);
  const doy = Math.floor((d.getTime() - start) / DAY_MS) + 1;
  return `${String(d.getUTCFullYear() % 100).padStart(2, "0")}${String(doy).padStart(3, "0")}`;
};
