// Admin-declared actions (docs/action-kinds.md "Declaring an action"; DESIGN "Action kinds" → "Admin-declared
// actions"): the declaration an admin writes without code, and the pure pieces the declared_action kind and the admin
// API build from it — the tool's strict JSON schema and zod validator, the derive path filled from the validated
// input, the RFC 6901 pointer that picks a derived field, and the confirmation sentence. No I/O here.
import { z } from "zod";

export const DECLARATION_STATUSES = ["pending", "active", "rejected", "retired", "superseded"] as const;
export type DeclarationStatus = (typeof DECLARATION_STATUSES)[number];

/** One version of a declaration as GET /api/admin/actions lists it (the server's answer and the Admin page's row). */
export type DeclarationRow = {
  id: string;
  name: string;
  version: number;
  status: DeclarationStatus;
  spec: ActionDeclarationSpec;
  proposedBy: { name: string; email: string };
  proposedAt: string;
  decidedBy: { name: string; email: string } | null;
  decidedAt: string | null;
  /** The viewer proposed it. */
  mine: boolean;
  /** Why the viewer may not approve it (messages adminChanges.refusals.*), or null. */
  approvalRefusal: string | null;
};

export const DECLARED_NAME = /^[a-z][a-z0-9_]{2,47}$/;
const INPUT_NAME = /^[a-z][a-z0-9_]{0,39}$/;
const FIELD_KEY = /^[a-z][a-z0-9_]{0,39}$/;
const EXECUTE_ACTION = /^[a-z][a-z0-9_.-]{2,60}$/;
const INT32 = 2 ** 31 - 1;
/** Placeholders of the derive path and the sentences: `{name}`. */
const PLACEHOLDER = /\{([^{}]*)\}/g;
/** What a derive path may hold besides placeholders: an absolute path and query, no fragment, no spaces. */
const PATH_CHARS = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/?{}]*$/;

/** A string from a declared field, a derived value: at most this long. */
export const MAX_DERIVED_STRING = 500;

const description = z.string().trim().min(1).max(500);

/** A JavaScript regular expression the admin wrote: valid, anchored ^…$, at most 200 characters. */
const anchoredPattern = z
  .string()
  .min(2)
  .max(200)
  .refine((p) => p.startsWith("^") && p.endsWith("$") && !p.endsWith("\\$"), "must be anchored: ^…$")
  .refine((p) => {
    try {
      new RegExp(p);
      return true;
    } catch {
      return false;
    }
  }, "is not a valid regular expression");

const stringInput = z
  .strictObject({
    name: z.string().regex(INPUT_NAME),
    type: z.literal("string"),
    description,
    pattern: anchoredPattern.optional(),
    enum: z.array(z.string().min(1).max(60)).min(1).max(20).optional(),
    maxLength: z.number().int().min(1).max(200).optional(),
  })
  .refine((f) => (f.pattern === undefined) !== (f.enum === undefined), {
    message: "a string field has exactly one of pattern or enum",
    path: ["pattern"],
  })
  .refine((f) => !f.enum || new Set(f.enum).size === f.enum.length, {
    message: "the allowed values repeat one",
    path: ["enum"],
  });

const integerInput = z
  .strictObject({
    name: z.string().regex(INPUT_NAME),
    type: z.literal("integer"),
    description,
    minimum: z.number().int().min(-INT32).max(INT32),
    maximum: z.number().int().min(-INT32).max(INT32),
  })
  .refine((f) => f.minimum <= f.maximum, { message: "minimum must not exceed maximum", path: ["maximum"] });

const booleanInput = z.strictObject({ name: z.string().regex(INPUT_NAME), type: z.literal("boolean"), description });

export const declaredInputField = z.union([stringInput, integerInput, booleanInput]);
export type DeclaredInputField = z.infer<typeof declaredInputField>;

/** An RFC 6901 JSON pointer: "" (the whole answer) or "/"-separated tokens, `~` only as ~0 or ~1. */
export const jsonPointer = z
  .string()
  .max(200)
  .regex(/^(\/([^~]|~[01])*)*$/, "must be an RFC 6901 JSON pointer (/a/b, ~0 for ~, ~1 for /)");

const label = z.strictObject({ en: z.string().trim().min(1).max(100), es: z.string().trim().min(1).max(100) });

export const declaredField = z.strictObject({
  key: z.string().regex(FIELD_KEY),
  pointer: jsonPointer,
  label,
  clear: z.boolean(),
});
export type DeclaredField = z.infer<typeof declaredField>;

const sentence = z.strictObject({ en: z.string().trim().min(1).max(300), es: z.string().trim().min(1).max(300) });

/** The names of a template's `{placeholders}`. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/** The declaration (the body of POST /api/admin/actions, `spec` in the list): every bound of the contract. */
export const actionDeclarationSpec = z
  .strictObject({
    name: z.string().regex(DECLARED_NAME, "lower snake case, 3–48 characters, starting with a letter"),
    description: z.string().trim().min(10).max(1000),
    input: z.array(declaredInputField).min(1).max(8),
    derive: z.strictObject({
      path: z
        .string()
        .min(1)
        .max(300)
        .regex(PATH_CHARS, "must start with / and hold only URL path and query characters")
        .refine((p) => !p.startsWith("//"), "must not start with //"),
    }),
    fields: z.array(declaredField).min(1).max(12),
    sentence,
    policy: z.strictObject({
      approvals: z.number().int().min(1).max(3),
      stepUp: z.boolean(),
      money: z.strictObject({ amountKey: z.string(), currencyKey: z.string() }).optional(),
    }),
    execute: z.strictObject({ action: z.string().regex(EXECUTE_ACTION) }),
  })
  .superRefine((spec, ctx) => {
    const inputs = spec.input.map((f) => f.name);
    inputs.forEach((n, i) => {
      if (inputs.indexOf(n) !== i) ctx.addIssue({ code: "custom", path: ["input", i, "name"], message: "repeated" });
    });
    const keys = spec.fields.map((f) => f.key);
    keys.forEach((k, i) => {
      if (keys.indexOf(k) !== i) ctx.addIssue({ code: "custom", path: ["fields", i, "key"], message: "repeated" });
    });
    for (const p of placeholdersOf(spec.derive.path))
      if (!inputs.includes(p))
        ctx.addIssue({ code: "custom", path: ["derive", "path"], message: `{${p}} names no input field` });
    for (const locale of ["en", "es"] as const)
      for (const p of placeholdersOf(spec.sentence[locale]))
        if (!keys.includes(p))
          ctx.addIssue({ code: "custom", path: ["sentence", locale], message: `{${p}} names no derived field` });
    const money = spec.policy.money;
    if (money) {
      if (!keys.includes(money.amountKey))
        ctx.addIssue({ code: "custom", path: ["policy", "money", "amountKey"], message: "names no derived field" });
      if (!keys.includes(money.currencyKey))
        ctx.addIssue({ code: "custom", path: ["policy", "money", "currencyKey"], message: "names no derived field" });
      if (money.amountKey === money.currencyKey)
        ctx.addIssue({ code: "custom", path: ["policy", "money", "currencyKey"], message: "must differ from amount" });
    }
  });
export type ActionDeclarationSpec = z.infer<typeof actionDeclarationSpec>;

// ---- The tool built from the declaration ----------------------------------------------------------

/** The JSON schema of the declared tool's arguments: strict, every property required, no extra properties. */
export function declaredInputJsonSchema(spec: Pick<ActionDeclarationSpec, "input">): Record<string, unknown> {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const f of spec.input) {
    if (f.type === "string")
      properties[f.name] = {
        type: "string",
        description: f.description,
        ...(f.enum ? { enum: f.enum } : { pattern: f.pattern }),
        maxLength: f.maxLength ?? 200,
      };
    else if (f.type === "integer")
      properties[f.name] = { type: "integer", description: f.description, minimum: f.minimum, maximum: f.maximum };
    else properties[f.name] = { type: "boolean", description: f.description };
  }
  return { type: "object", properties, required: spec.input.map((f) => f.name), additionalProperties: false };
}

/** The zod validator of a call's arguments, built from the same declaration (the server checks every limit). */
export function declaredInputValidator(spec: Pick<ActionDeclarationSpec, "input">) {
  const shape: Record<string, z.ZodType> = {};
  for (const f of spec.input) {
    if (f.type === "string") {
      const max = f.maxLength ?? 200;
      // NUL cannot be stored in PostgreSQL text; an enum value never holds one.
      shape[f.name] = f.enum
        ? z.enum(f.enum as [string, ...string[]])
        : z
            .string()
            .max(max)
            .regex(new RegExp(f.pattern!))
            // eslint-disable-next-line no-control-regex -- refusing NUL is the point of this check
            .regex(/^[^\u0000]*$/);
    } else if (f.type === "integer") shape[f.name] = z.number().int().min(f.minimum).max(f.maximum);
    else shape[f.name] = z.boolean();
  }
  return z.strictObject(shape);
}

export type DeclaredInput = Record<string, string | number | boolean>;

/** The derive path with each `{name}` replaced by the input's value, URL-encoded (a `/` or `?` stays data). */
export function fillDerivePath(path: string, input: DeclaredInput): string {
  return path.replace(PLACEHOLDER, (_, name: string) => {
    if (!Object.hasOwn(input, name)) throw new Error(`derive path placeholder {${name}} names no input field`);
    return encodeURIComponent(String(input[name]));
  });
}

/** The value an RFC 6901 pointer names in a parsed JSON document, or `found: false`. */
export function pickPointer(doc: unknown, pointer: string): { found: true; value: unknown } | { found: false } {
  if (pointer === "") return { found: true, value: doc };
  if (!pointer.startsWith("/")) return { found: false };
  let node: unknown = doc;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return { found: false };
      const i = Number(token);
      if (i >= node.length) return { found: false };
      node = node[i];
    } else if (node !== null && typeof node === "object") {
      if (!Object.hasOwn(node, token)) return { found: false };
      node = (node as Record<string, unknown>)[token];
    } else return { found: false };
  }
  return { found: true, value: node };
}

/** A derived value the params may hold: a string (≤ 500), a safe integer (the hash keeps no float) or a boolean. */
export type DerivedValue = string | number | boolean;

export function isDerivedValue(value: unknown): value is DerivedValue {
  if (typeof value === "string") return value.length <= MAX_DERIVED_STRING && !value.includes("\u0000");
  if (typeof value === "number") return Number.isSafeInteger(value);
  return typeof value === "boolean";
}

/** The sentence with each `{key}` replaced by that field's value as text. */
export function fillSentence(template: string, values: Record<string, DerivedValue>): string {
  return template.replace(PLACEHOLDER, (whole, key: string) =>
    Object.hasOwn(values, key) ? String(values[key]) : whole,
  );
}
