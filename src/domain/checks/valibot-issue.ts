import type * as v from "valibot";

/** The first valibot issue as `path: rule` (docs/contract.md, Requests and authentication: the message names the field and the rule). */
export function describeIssue(issue: v.BaseIssue<unknown> | undefined): string {
  if (!issue) return "body: invalid";
  // A union reports "no branch matched"; its first branch's own issue says more.
  if (issue.issues?.length) return describeIssue(issue.issues[0]);
  const path = toPath(issue.path);
  // strictObject reports an unknown key as "expected never"; say what it means.
  if (issue.kind === "schema" && issue.expected === "never") return `${path}: unknown field`;
  if (issue.type === "object" && issue.received === "undefined") return `${path}: is required`;
  if (issue.received === "undefined" && path !== "body") return `${path}: is required`;
  return `${path}: ${issue.message}`;
}

function toPath(path: v.BaseIssue<unknown>["path"]): string {
  if (!path || path.length === 0) return "body";
  let out = "";
  for (const item of path) {
    const key = (item as { key: unknown }).key;
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}
