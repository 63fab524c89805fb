import { spawnSync } from "node:child_process";

// The docs' code blocks as the tests run them (issue 39): fenced blocks by their info string
// (```php verify-webhook), and the curl lines of the `sh` blocks, each checked against the
// `# -> STATUS {"field":value}` comment the doc writes under it.

export type FencedBlock = { lang: string; tags: string[]; code: string; line: number };

/** Every fenced block of a Markdown text, with its language and the words after it. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    if (i >= lines.length) throw new Error(`the code block opened on line ${start + 1} is never closed`);
    blocks.push({ lang: open[1]!, tags: open[2]!.trim().split(/\s+/).filter(Boolean), code: `${body.join("\n")}\n`, line: start + 1 });
  }
  return blocks;
}

/** What a doc promises a curl answers: the status (any 2xx when it names none) and fields. */
export type Expectation = { status: number | null; fields: Array<[string, unknown]> };

export type CurlStep =
  | { kind: "curl"; command: string; line: string; expect: Expectation }
  /** `PAY=pay_...`: the doc's "the value it answered"; taken from the previous answer. */
  | { kind: "placeholder"; name: string; prefix: string };

const FIELD = /"(\w+)":("(?:[^"\\]|\\.)*"|true|false|null|-?\d+)/g;

function expectation(comment: string): Expectation {
  const status = /^#\s*->\s*(\d{3})\b/.exec(comment.trim());
  const fields = [...comment.matchAll(FIELD)].map((m): [string, unknown] => [m[1]!, JSON.parse(m[2]!)]);
  return { status: status ? Number(status[1]) : null, fields };
}

/** The curl commands (continuation lines joined) and placeholders of one sh block, in order. */
export function curlSteps(code: string): CurlStep[] {
  const logical: string[] = [];
  for (const raw of code.split("\n")) {
    const previous = logical.at(-1);
    if (previous?.endsWith("\\")) logical[logical.length - 1] = `${previous.slice(0, -1)}${raw.trim()}`;
    else logical.push(raw.trim());
  }
  const steps: CurlStep[] = [];
  for (const line of logical) {
    const last = steps.at(-1);
    if (line.startsWith("curl ")) {
      const trailing = /\s(#\s*->.*)$/.exec(line);
      steps.push({ kind: "curl", command: line, line, expect: expectation(trailing?.[1] ?? "") });
    } else if (/^#\s*->/.test(line) && last?.kind === "curl" && last.expect.status === null && last.expect.fields.length === 0) {
      last.expect = expectation(line);
    } else {
      const placeholder = /^([A-Z_]+)=(\S*)\.\.\.(\s|$)/.exec(line);
      if (placeholder) steps.push({ kind: "placeholder", name: placeholder[1]!, prefix: placeholder[2]! });
    }
  }
  return steps;
}

/** The `NAME=value` assignment of a block (the doc's base URL, to be replaced by the test's). */
export function assignedValue(code: string, name: string): string | undefined {
  return new RegExp(`^${name}=(\\S+)`, "m").exec(code)?.[1];
}

/** True when some object in the answer has the field with that value; "pay_..." matches by prefix. */
function hasField(answer: unknown, name: string, value: unknown): boolean {
  if (Array.isArray(answer)) return answer.some((item) => hasField(item, name, value));
  if (answer === null || typeof answer !== "object") return false;
  const record = answer as Record<string, unknown>;
  if (name in record) {
    const actual = record[name];
    if (typeof value === "string" && value.endsWith("...") && typeof actual === "string" && actual.startsWith(value.slice(0, -3)))
      return true;
    if (actual === value) return true;
  }
  return Object.values(record).some((v) => hasField(v, name, value));
}

/** The first string in the answer (depth first, in field order) that starts with the prefix. */
function firstWithPrefix(answer: unknown, prefix: string): string | undefined {
  if (typeof answer === "string") return answer.startsWith(prefix) ? answer : undefined;
  if (answer === null || typeof answer !== "object") return undefined;
  for (const v of Object.values(answer as Record<string, unknown>)) {
    const found = firstWithPrefix(v, prefix);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Runs a doc's curl steps with bash and the real curl, the variables (KEY, BASE, and each
 * placeholder once answered) in the environment; the doc's own base URL in an expected value
 * stands for the test's. Throws at the first answer that breaks what the doc says of it.
 */
export function runCurlSteps(steps: CurlStep[], vars: Record<string, string>, docBase: string | undefined): string[] {
  const ran: string[] = [];
  let previous: unknown;
  for (const step of steps) {
    if (step.kind === "placeholder") {
      const value = firstWithPrefix(previous, step.prefix);
      if (value === undefined) throw new Error(`${step.name}=${step.prefix}...: the answer before it has no value starting ${step.prefix}`);
      vars[step.name] = value;
      continue;
    }
    // A function, so the doc's line runs verbatim (its comments included) and still reports the status.
    const script = `curl() { command curl -sS -w '\\n%{http_code}' "$@"; }\n${step.command}\n`;
    const run = spawnSync("bash", ["-c", script], { encoding: "utf8", env: { ...process.env, ...vars }, timeout: 30_000 });
    const out = run.stdout.trimEnd();
    const cut = out.lastIndexOf("\n");
    const status = Number(out.slice(cut + 1));
    const body = out.slice(0, Math.max(cut, 0));
    const where = `${step.line}\n  answered ${status}: ${body.slice(0, 600)}${run.stderr ? `\n  stderr: ${run.stderr}` : ""}`;
    if (run.status !== 0) throw new Error(`curl failed (exit ${run.status}): ${where}`);
    const okStatus = step.expect.status === null ? status >= 200 && status < 300 : status === step.expect.status;
    if (!okStatus) throw new Error(`expected ${step.expect.status ?? "2xx"}: ${where}`);
    previous = JSON.parse(body);
    for (const [name, documented] of step.expect.fields) {
      const value = typeof documented === "string" && docBase ? documented.replaceAll(docBase, vars.BASE ?? docBase) : documented;
      if (!hasField(previous, name, value)) throw new Error(`expected "${name}":${JSON.stringify(value)}: ${where}`);
    }
    ran.push(step.line);
  }
  return ran;
}
