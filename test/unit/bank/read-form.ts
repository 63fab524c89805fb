/**
 * A browser-less reading of a rendered form: its action and the fields a submit would send.
 * Enough for the simulated bank's pages, which the tests render themselves.
 */

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

const unescapeHtml = (text: string): string => text.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);

const attr = (tag: string, name: string): string | null => {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match?.[1] === undefined ? null : unescapeHtml(match[1]);
};

export interface ReadForm {
  action: string;
  hidden: Record<string, string>;
}

export const readForm = (body: string): ReadForm => {
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/.exec(body);
  if (!form) throw new Error("no form in page");
  const action = attr(form[0].slice(0, form[0].indexOf(">") + 1), "action");
  if (action === null) throw new Error("form without action");
  const hidden: Record<string, string> = {};
  for (const input of form[1]?.match(/<input\b[^>]*>/g) ?? []) {
    if (attr(input, "type") !== "hidden") continue;
    const name = attr(input, "name");
    if (name !== null) hidden[name] = attr(input, "value") ?? "";
  }
  return { action, hidden };
};
