// The "New action" form's state (every box as typed) and the declaration it becomes (/work/declared-contract.md).
import type { DeclarationSpec, InputFieldSpec } from "../../_components/declaration";

export const inputTypes = ["string", "integer", "boolean"] as const;
export type InputType = (typeof inputTypes)[number];

export type InputDraft = {
  uid: number;
  name: string;
  type: InputType;
  description: string;
  pattern: string;
  /** Comma separated. */
  allowed: string;
  maxLength: string;
  minimum: string;
  maximum: string;
};

export type DerivedDraft = {
  uid: number;
  key: string;
  pointer: string;
  labelEn: string;
  labelEs: string;
  clear: boolean;
};

export type Draft = {
  name: string;
  description: string;
  input: InputDraft[];
  derivePath: string;
  fields: DerivedDraft[];
  sentenceEn: string;
  sentenceEs: string;
  approvals: string;
  stepUp: boolean;
  amountKey: string;
  currencyKey: string;
  action: string;
};

let nextUid = 1;
/** A fresh row id: React keys and element ids stay with a row when another row is removed. */
export const uid = () => nextUid++;

export const emptyInput = (): InputDraft => ({
  uid: uid(),
  name: "",
  type: "string",
  description: "",
  pattern: "",
  allowed: "",
  maxLength: "",
  minimum: "",
  maximum: "",
});

export const emptyDerived = (): DerivedDraft => ({
  uid: uid(),
  key: "",
  pointer: "",
  labelEn: "",
  labelEs: "",
  clear: false,
});

export const emptyDraft = (): Draft => ({
  name: "",
  description: "",
  input: [emptyInput()],
  derivePath: "",
  fields: [emptyDerived()],
  sentenceEn: "",
  sentenceEs: "",
  approvals: "1",
  stepUp: true,
  amountKey: "",
  currencyKey: "",
  action: "",
});

/** A comma-separated list as its trimmed, non-empty items. */
export const listOf = (raw: string) =>
  raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** A number box: its integer, or NaN when empty or not a whole number. */
export const intOf = (raw: string) => (/^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN);

function inputSpecOf(f: InputDraft): InputFieldSpec {
  const base = { name: f.name.trim(), description: f.description.trim() };
  if (f.type === "boolean") return { ...base, type: "boolean" };
  if (f.type === "integer") return { ...base, type: "integer", minimum: intOf(f.minimum), maximum: intOf(f.maximum) };
  const maxLength = f.maxLength.trim() ? { maxLength: intOf(f.maxLength) } : {};
  // Exactly one of pattern or enum: a pattern typed wins (the check says so when both are filled).
  return f.pattern.trim()
    ? { ...base, type: "string", pattern: f.pattern.trim(), ...maxLength }
    : { ...base, type: "string", enum: listOf(f.allowed), ...maxLength };
}

/** The declaration the form's boxes say (the checks run on the draft; the server is the authority). */
export function specOf(d: Draft): DeclarationSpec {
  const money =
    d.amountKey && d.currencyKey ? { money: { amountKey: d.amountKey, currencyKey: d.currencyKey } } : undefined;
  return {
    name: d.name.trim(),
    description: d.description.trim(),
    input: d.input.map(inputSpecOf),
    derive: { path: d.derivePath.trim() },
    fields: d.fields.map((f) => ({
      key: f.key.trim(),
      pointer: f.pointer.trim(),
      label: { en: f.labelEn.trim(), es: f.labelEs.trim() },
      clear: f.clear,
    })),
    sentence: { en: d.sentenceEn.trim(), es: d.sentenceEs.trim() },
    policy: { approvals: intOf(d.approvals), stepUp: d.stepUp, ...money },
    execute: { action: d.action.trim() },
  };
}

/** The form filled from a declaration (`?from=<name>`: its next version starts from the active one). */
export function draftOf(s: DeclarationSpec): Draft {
  return {
    name: s.name,
    description: s.description,
    input: s.input.map((f) => ({
      ...emptyInput(),
      name: f.name,
      type: f.type,
      description: f.description,
      pattern: f.type === "string" ? (f.pattern ?? "") : "",
      allowed: f.type === "string" ? (f.enum ?? []).join(", ") : "",
      maxLength: f.type === "string" && f.maxLength !== undefined ? String(f.maxLength) : "",
      minimum: f.type === "integer" ? String(f.minimum) : "",
      maximum: f.type === "integer" ? String(f.maximum) : "",
    })),
    derivePath: s.derive.path,
    fields: s.fields.map((f) => ({
      uid: uid(),
      key: f.key,
      pointer: f.pointer,
      labelEn: f.label.en,
      labelEs: f.label.es,
      clear: f.clear,
    })),
    sentenceEn: s.sentence.en,
    sentenceEs: s.sentence.es,
    approvals: String(s.policy.approvals),
    stepUp: s.policy.stepUp,
    amountKey: s.policy.money?.amountKey ?? "",
    currencyKey: s.policy.money?.currencyKey ?? "",
    action: s.execute.action,
  };
}

/** A server problem's path (`$.input[0].pattern`, `input.0.pattern`) as the form's field paths spell it. */
export function normalizePath(path: string): string {
  return path
    .replace(/^\$\.?/, "")
    .replace(/\[(\d+)\]/g, ".$1")
    .replace(/^\./, "");
}
