// The form's own checks, mirroring the bounds of /work/declared-contract.md so an admin hears of a mistake at the
// box that holds it before a round trip. The server checks everything again and is the authority.
import { intOf, listOf, type Draft, type InputDraft } from "./draft";

/** Each code is a message `adminActions.problems.<code>` (with `values` for its placeholders). */
export type DraftProblem = { path: string; code: string; values?: Record<string, string | number> };

export const TOOL_NAME = /^[a-z][a-z0-9_]{2,47}$/;
export const FIELD_KEY = /^[a-z][a-z0-9_]{0,39}$/;
export const EXECUTE_ACTION = /^[a-z][a-z0-9_.-]{2,60}$/;
const INT_LIMIT = 2 ** 31 - 1;

/** The `{name}` placeholders of a template, in order. */
export const placeholdersOf = (template: string) => [...template.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!);

/** An RFC 6901 JSON pointer: empty (the whole answer) or `/`-separated tokens whose `~` escapes are `~0` or `~1`. */
export const isJsonPointer = (p: string) => p === "" || (p.startsWith("/") && !/~(?![01])/.test(p));

function regexpProblem(pattern: string): string | null {
  if (pattern.length > 200) return "patternLength";
  if (!pattern.startsWith("^") || !pattern.endsWith("$")) return "anchored";
  try {
    new RegExp(pattern);
    return null;
  } catch {
    return "regex";
  }
}

function checkInput(f: InputDraft, at: string, out: DraftProblem[]) {
  if (!FIELD_KEY.test(f.name.trim())) out.push({ path: `${at}.name`, code: "fieldKey" });
  if (!f.description.trim()) out.push({ path: `${at}.description`, code: "required" });
  if (f.type === "integer") {
    const min = intOf(f.minimum);
    const max = intOf(f.maximum);
    for (const [key, v] of [
      ["minimum", min],
      ["maximum", max],
    ] as const) {
      if (!Number.isInteger(v) || Math.abs(v) > INT_LIMIT) out.push({ path: `${at}.${key}`, code: "integer" });
    }
    if (Number.isInteger(min) && Number.isInteger(max) && min > max)
      out.push({ path: `${at}.maximum`, code: "minMax" });
    return;
  }
  if (f.type !== "string") return;
  const pattern = f.pattern.trim();
  const allowed = listOf(f.allowed);
  if ((pattern ? 1 : 0) + (allowed.length ? 1 : 0) !== 1) out.push({ path: `${at}.pattern`, code: "patternOrEnum" });
  else if (pattern) {
    const problem = regexpProblem(pattern);
    if (problem) out.push({ path: `${at}.pattern`, code: problem });
  } else if (allowed.length > 20 || allowed.some((v) => v.length > 60)) out.push({ path: `${at}.enum`, code: "enum" });
  if (f.maxLength.trim()) {
    const n = intOf(f.maxLength);
    if (!(n >= 1 && n <= 200)) out.push({ path: `${at}.maxLength`, code: "maxLength" });
  }
}

/** Every problem of the draft, each at the path of the box that holds it (empty: nothing to fix). */
export function checkDraft(d: Draft): DraftProblem[] {
  const out: DraftProblem[] = [];
  if (!TOOL_NAME.test(d.name.trim())) out.push({ path: "name", code: "toolName" });
  const description = d.description.trim().length;
  if (description < 10 || description > 1000) out.push({ path: "description", code: "description" });

  if (d.input.length < 1 || d.input.length > 8) out.push({ path: "input", code: "inputCount" });
  const names = d.input.map((f) => f.name.trim());
  d.input.forEach((f, i) => {
    checkInput(f, `input.${i}`, out);
    if (f.name.trim() && names.indexOf(f.name.trim()) !== i) out.push({ path: `input.${i}.name`, code: "unique" });
  });

  const path = d.derivePath.trim();
  if (!path.startsWith("/") || path.length > 300) out.push({ path: "derive.path", code: "derivePath" });
  else {
    const unknown = placeholdersOf(path).find((p) => !names.includes(p));
    if (unknown !== undefined) out.push({ path: "derive.path", code: "placeholder", values: { name: unknown } });
  }

  if (d.fields.length < 1 || d.fields.length > 12) out.push({ path: "fields", code: "fieldCount" });
  const keys = d.fields.map((f) => f.key.trim());
  d.fields.forEach((f, i) => {
    const at = `fields.${i}`;
    if (!FIELD_KEY.test(keys[i]!)) out.push({ path: `${at}.key`, code: "fieldKey" });
    else if (keys.indexOf(keys[i]!) !== i) out.push({ path: `${at}.key`, code: "unique" });
    if (!isJsonPointer(f.pointer.trim())) out.push({ path: `${at}.pointer`, code: "pointer" });
    if (!f.labelEn.trim()) out.push({ path: `${at}.label.en`, code: "required" });
    if (!f.labelEs.trim()) out.push({ path: `${at}.label.es`, code: "required" });
  });

  for (const [locale, text] of [
    ["en", d.sentenceEn.trim()],
    ["es", d.sentenceEs.trim()],
  ] as const) {
    if (!text || text.length > 300) out.push({ path: `sentence.${locale}`, code: "sentence" });
    const unknown = placeholdersOf(text).find((k) => !keys.includes(k));
    if (unknown !== undefined) out.push({ path: `sentence.${locale}`, code: "sentenceKey", values: { key: unknown } });
  }

  const approvals = intOf(d.approvals);
  if (!(approvals >= 1 && approvals <= 3)) out.push({ path: "policy.approvals", code: "approvals" });
  if (Boolean(d.amountKey) !== Boolean(d.currencyKey) || (d.amountKey && d.amountKey === d.currencyKey))
    out.push({ path: "policy.money", code: "money" });
  else if (d.amountKey && (!keys.includes(d.amountKey) || !keys.includes(d.currencyKey)))
    out.push({ path: "policy.money", code: "money" });

  if (!EXECUTE_ACTION.test(d.action.trim())) out.push({ path: "execute.action", code: "executeAction" });
  return out;
}
