import { createConsola, type ConsolaInstance } from "consola";
import { wallNowMs } from "./clock";
import { toIso } from "./iso-time";
import type { Log } from "./deps";

/**
 * The service log over consola. Fields are rendered with JSON.stringify, so a Sensitive value
 * prints "[redacted]"; errors keep their stack (docs/contract.md, Requests and authentication: a 500 is logged with its stack).
 */
export function createLog(tag = "kasa", instance: ConsolaInstance = createConsola({ level: 3 })): Log {
  const logger = instance.withTag(tag);
  const render = (fields?: Record<string, unknown>): string => (fields ? ` ${JSON.stringify(fields, replacer)}` : "");
  return {
    info: (m, f) => logger.info(m + render(f)),
    warn: (m, f) => logger.warn(m + render(f)),
    error: (m, f) => logger.error(m + render(f)),
  };
}

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

/**
 * docs/operating.md `--log-format json`: one JSON object per line (time, level, msg, then the fields), for
 * log shippers. Sensitive values print "[redacted]" as in the pretty form.
 */
export function createJsonLog(write: (line: string) => void, tag = "kasa"): Log {
  const line = (level: string) => {
    const head = `,"level":${JSON.stringify(level)},"tag":${JSON.stringify(tag)},"msg":`;
    return (msg: string, fields?: Record<string, unknown>) => {
      const time = toIso(wallNowMs());
      const flat = typeof msg !== "string" ? null : fields === undefined ? "" : flatFields(fields);
      write(
        flat === null
          ? `${JSON.stringify({ time, level, tag, msg, ...fields }, replacer)}\n`
          : `{"time":"${time}"${head}${JSON.stringify(msg)}${flat}}\n`,
      );
    };
  };
  return { info: line("info"), warn: line("warn"), error: line("error") };
}

const HEAD_KEYS = new Set(["time", "level", "tag", "msg"]);
/** `,"key":` of the field names seen, so a line escapes only its values. */
const keyPrefixes = new Map<string, string>();
const MAX_KEY_PREFIXES = 1000;

/**
 * `,"key":value` for each field, as JSON.stringify would place them after the four head keys,
 * when every value is a string, a finite number, a boolean, null or undefined (left out, as
 * JSON.stringify leaves it out): a request line's fields are, and building it by hand saves the
 * replacer's call per key (issue 37). Anything else (an object, an error, a key the head already
 * has or one JavaScript would order first, such as "1") answers null: the caller stringifies.
 */
function flatFields(fields: Record<string, unknown>): string | null {
  let out = "";
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    const value = fields[key];
    if (value === undefined) continue;
    let prefix = keyPrefixes.get(key);
    if (prefix === undefined) {
      if (HEAD_KEYS.has(key) || /^\d/.test(key)) return null;
      prefix = `,${JSON.stringify(key)}:`;
      if (keyPrefixes.size < MAX_KEY_PREFIXES) keyPrefixes.set(key, prefix);
    }
    if (typeof value === "string") out += prefix + JSON.stringify(value);
    else if (typeof value === "number") out += prefix + (Number.isFinite(value) ? String(value) : "null");
    else if (typeof value === "boolean" || value === null) out += prefix + String(value);
    else return null;
  }
  return out;
}

/** For tests: keeps every line so a test can scan them (e.g. for card numbers). */
export function memoryLog(): Log & { lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (m: string, f?: Record<string, unknown>) =>
    void lines.push(`${level} ${m}${f ? ` ${JSON.stringify(f, replacer)}` : ""}`);
  return { lines, info: push("info"), warn: push("warn"), error: push("error") };
}

/**
 * Lines written together once per turn of the event loop: one `write` for every line a turn
 * produced instead of one each. A request log line per request made the write call the largest
 * single cost of a read (docs/performance.md). `flush` writes what is waiting at once (shutdown).
 */
export function batchedWriter(write: (chunk: string) => void): { write(line: string): void; flush(): void } {
  let waiting: string[] = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (waiting.length === 0) return;
    const chunk = waiting.join("");
    waiting = [];
    write(chunk);
  };
  return {
    write(line) {
      waiting.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
