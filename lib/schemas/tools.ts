// The agent tools' argument schemas: defined once, used to validate every call (HTTP and MCP) and to
// publish the tool definitions (GET /api/agent/tools, MCP tools/list) through z.toJSONSchema.
// Every object is strict: an unknown field (amount, customer_id, currency, recipient…) is refused,
// because identity, tenant, amount and recipient are derived by the server, never taken from a model.
import { z } from "zod";
import { storable } from "./stored";
import { orderReference, waitSecondsInput, type ToolDeclaration } from "./agent-inputs";
import { agentErrorCodes, successCodes } from "@/lib/domain/outcome";
import { kindTools, previewToolNames } from "@/lib/actions/registry";

export { MAX_WAIT_SECONDS, orderReference, type ToolAnnotations } from "./agent-inputs";

export const ticketCategories = ["billing", "technical", "complaint"] as const;
export const ticketPriorities = ["low", "normal", "urgent"] as const;
export const TICKET_SUMMARY_MAX = 500;

export const lookupOrderInput = z.strictObject({ order_id: orderReference });
export type LookupOrderInput = z.infer<typeof lookupOrderInput>;

export const createSupportTicketInput = z.strictObject({
  category: z
    .enum(ticketCategories)
    .describe(
      "billing: charges, invoices, refunds questions; technical: the product or site does not work; complaint: anything else the customer is unhappy about.",
    ),
  // NUL cannot be stored in PostgreSQL text (the pattern says so to the model); storable() refuses a lone
  // surrogate as well (lib/schemas/stored.ts). Other control characters are harmless.
  summary: storable(
    z
      .string()
      .trim()
      .min(10)
      .max(TICKET_SUMMARY_MAX)
      // eslint-disable-next-line no-control-regex -- refusing NUL is the point of this check
      .regex(/^[^\u0000]*$/),
  ).describe(
    `What the customer needs, in one or two sentences (10–${TICKET_SUMMARY_MAX} characters). Do not include card numbers, passwords or other secrets.`,
  ),
  priority: z.enum(ticketPriorities).describe("urgent only when the customer is blocked right now; normal by default."),
});
export type CreateSupportTicketInput = z.infer<typeof createSupportTicketInput>;

export const getActionStatusInput = z.strictObject({
  proposal_id: z
    .uuid()
    .describe("The proposal id a prepare tool (prepare_refund, prepare_address_change, …) returned."),
  wait_seconds: waitSecondsInput({ status: "the action's", busy: "being carried out", unchanged: "action" }),
});
export type GetActionStatusInput = z.infer<typeof getActionStatusInput>;

/**
 * The tool catalogue: name, title, hints, when to call it, its argument schema. Names are boring on purpose. The
 * gateway's own tools are here; each action kind's tools come from its folder through the registry (lib/actions).
 */
export const toolCatalog = {
  lookup_order: {
    title: "Look up an order",
    // MCP tool annotations (hints for clients; never a security boundary — the server authorizes).
    annotations: { readOnlyHint: true, openWorldHint: false },
    description:
      "Look up one order of the signed-in customer: status, items, amounts paid and refunded, and how much can still be refunded. Call it when the customer asks about an order they name, before preparing a refund.",
    input: lookupOrderInput,
  },
  // The action kinds' tools (prepare_refund, get_refund_status, …): declared in each kind's folder.
  ...kindTools,
  get_action_status: {
    title: "Get an action's status",
    annotations: { readOnlyHint: true, openWorldHint: false },
    description:
      "Get the status of any action prepared earlier (a refund, an address change, …): awaiting approval, being carried out, done, rejected with the reviewer's reason, expired, or replaced by another one, with the exact action a person approves. Call it when the customer asks how their request is going, or with wait_seconds to wait for a reviewer's decision. Never prepare the action again instead.",
    input: getActionStatusInput,
  },
  create_support_ticket: {
    title: "Open a support ticket",
    // Adds a ticket; each call opens a new one, so not idempotent.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    description:
      "Open a support ticket for a human agent to follow up. Call it when the customer needs something no other tool can do, or asks to talk to a person.",
    input: createSupportTicketInput,
  },
} as const satisfies Record<string, ToolDeclaration>;

export type ToolName = keyof typeof toolCatalog;
export const toolNames = Object.keys(toolCatalog) as ToolName[];

/** Of these tools, those Admin may offer: every one but the tools of kinds still in preview (lib/actions/kind.ts). */
export function offeredAmong<N extends string>(names: readonly N[], preview: ReadonlySet<string>): N[] {
  return names.filter((n) => !preview.has(n));
}

/** The tools Admin offers to channels and keys. */
export const offeredToolNames = offeredAmong(toolNames, previewToolNames);

export function isOfferedToolName(value: string): value is ToolName {
  return (offeredToolNames as string[]).includes(value);
}

export function isToolName(value: string): value is ToolName {
  return Object.hasOwn(toolCatalog, value);
}

/** JSON Schema of a tool's arguments: strict, every property required, no extra properties. */
export function toolJsonSchema(name: ToolName): Record<string, unknown> {
  const schema = z.toJSONSchema(toolCatalog[name].input) as Record<string, unknown>;
  delete schema.$schema;
  // Every property listed as required (vendors' strict modes want that); the optional ones accept null.
  return {
    ...schema,
    required: Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {}),
    additionalProperties: false,
  };
}

// ---- vendor-exact schemas -----------------------------------------------------------------------
// Each vendor's strict mode accepts only a documented subset of JSON Schema; a keyword outside it is
// either rejected (the whole request fails) or silently ignored. So each format is served only what that
// vendor documents; every limit left out is restated in the field's description so the model still
// knows it, and the server keeps validating the full zod schema (toolJsonSchema) on every call.
//
// Sources (checked 2026-11-30, summarised in the team's TOOLCHAIN.md "Agent vendors' strict schemas"):
// - Anthropic, "Strict tool use" → "JSON Schema limitations"
//   (platform.claude.com/docs/agents-and-tools/tool-use/strict-tool-use): supported are type, properties,
//   required, additionalProperties:false, enum, const, items, anyOf, description, `format` (uuid, date-time,
//   email, …) and `pattern` for simple regular expressions only; minLength/maxLength, minimum/maximum,
//   multipleOf are documented as unsupported.
// - OpenAI, "Structured Outputs" → "Supported schemas" (platform.openai.com/docs/guides/structured-outputs):
//   type, properties, required (every property), additionalProperties:false, enum, const, items, anyOf,
//   description; `pattern` and `format` only for base models (fine-tuned models reject them with
//   strict: true); minLength/maxLength are not on the supported list. Both the Responses API and Chat
//   Completions apply the same strict subset, so they are served the conservative intersection.

export type Vendor = "anthropic" | "openai";

/** OpenAI's strict subset; Anthropic's is this plus `format` and (simple) `pattern`. */
const openaiKeywords = [
  "type",
  "properties",
  "required",
  "additionalProperties",
  "enum",
  "const",
  "items",
  "anyOf",
  "description",
] as const;

/** Keywords each vendor's strict mode accepts (the allow-list the unit test holds the served schemas to). */
export const vendorKeywords: Record<Vendor, ReadonlySet<string>> = {
  anthropic: new Set([...openaiKeywords, "format", "pattern"]),
  openai: new Set(openaiKeywords),
};

/** Anthropic supports `pattern` only for simple regexes: no groups, alternation, lookaround, back-references or escapes beyond \d\w\s. */
export function isSimplePattern(pattern: string): boolean {
  return !/[()|]|\\[^dws.-]|\\u/.test(pattern);
}

function limitText(node: Record<string, unknown>, dropped: Set<string>): string[] {
  const out: string[] = [];
  const min = node.minLength as number | undefined;
  const max = node.maxLength as number | undefined;
  if (dropped.has("minLength") || dropped.has("maxLength")) {
    if (min !== undefined && max !== undefined) out.push(`${min}–${max} characters`);
    else if (min !== undefined) out.push(`at least ${min} characters`);
    else if (max !== undefined) out.push(`at most ${max} characters`);
  }
  if (dropped.has("minimum")) out.push(`at least ${String(node.minimum)}`);
  if (dropped.has("maximum")) out.push(`at most ${String(node.maximum)}`);
  if (dropped.has("format") && node.format === "uuid") out.push("a UUID such as 3f2a9c1e-5b7d-4e8a-9c0f-1a2b3c4d5e6f");
  else if (dropped.has("format")) out.push(`format ${String(node.format)}`);
  if (dropped.has("pattern") && !(node.format === "uuid")) {
    const p = String(node.pattern);
    // The NUL guard exists for PostgreSQL text columns; to the model it is just "plain text".
    out.push(p === "^[^\\u0000]*$" ? "plain text (no NUL characters)" : `matching the regular expression ${p}`);
  }
  return out;
}

/** The schema a vendor's strict mode accepts, with every removed limit restated in the description. */
export function vendorSchema(schema: Record<string, unknown>, vendor: Vendor): Record<string, unknown> {
  const allowed = vendorKeywords[vendor];
  const out: Record<string, unknown> = {};
  const dropped = new Set<string>();
  for (const [k, v] of Object.entries(schema)) {
    if (!allowed.has(k)) {
      dropped.add(k);
      continue;
    }
    if (k === "pattern" && (!isSimplePattern(String(v)) || (vendor === "anthropic" && "format" in schema))) {
      // A format already says it (uuid), or the regex is beyond the documented "simple" subset.
      dropped.add(k);
      continue;
    }
    if (k === "properties" && v && typeof v === "object") {
      out.properties = Object.fromEntries(
        Object.entries(v as Record<string, Record<string, unknown>>).map(([name, sub]) => [
          name,
          vendorSchema(sub, vendor),
        ]),
      );
    } else if (k === "items" && v && typeof v === "object" && !Array.isArray(v)) {
      out.items = vendorSchema(v as Record<string, unknown>, vendor);
    } else if (k === "anyOf" && Array.isArray(v)) {
      out.anyOf = (v as Record<string, unknown>[]).map((sub) => vendorSchema(sub, vendor));
    } else {
      out[k] = v;
    }
  }
  const limits = limitText(schema, dropped);
  if (limits.length > 0) {
    const base = typeof schema.description === "string" ? schema.description.trim() : "";
    out.description = `${base}${base ? " " : ""}Limits (the server checks them): ${limits.join("; ")}.`;
  }
  return out;
}

export type ToolFormat = "anthropic" | "openai" | "openai_chat";

/**
 * A tool as published: its name, when to call it and its full strict JSON schema — a catalogue tool's, or a tool that
 * exists per tenant (an admin-declared action's, lib/server/agent/dynamic-tools.ts), served through the same vendor
 * subsets.
 */
export type PublishedTool = { name: string; description: string; inputSchema: Record<string, unknown> };
export const toolFormats: readonly ToolFormat[] = ["anthropic", "openai", "openai_chat"];

/**
 * Tool definitions for Anthropic (Messages API `tools`), OpenAI Responses (function tools) or OpenAI Chat
 * Completions (`tools: [{type:"function", function:{…}}]`), each with only its vendor's strict keywords.
 */
export function toolDefinitions(names: readonly ToolName[], format: ToolFormat, extra: readonly PublishedTool[] = []) {
  const tools: PublishedTool[] = [
    ...names.map((name) => ({ name, description: toolCatalog[name].description, inputSchema: toolJsonSchema(name) })),
    ...extra,
  ];
  return tools.map(({ name, description, inputSchema: full }) => {
    if (format === "anthropic")
      return { name, description, input_schema: vendorSchema(full, "anthropic"), strict: true };
    const parameters = vendorSchema(full, "openai");
    return format === "openai"
      ? { type: "function" as const, name, description, parameters, strict: true }
      : { type: "function" as const, function: { name, description, parameters, strict: true } };
  });
}

/**
 * MCP `outputSchema`: the structuredContent of every result, success or error, is the same envelope as the
 * HTTP contract's content string. Clients (the official SDK) validate structuredContent against it, on
 * error results too, so both branches are described.
 */
export const toolOutputSchema = {
  type: "object",
  properties: {
    code: { type: "string", enum: [...successCodes, ...agentErrorCodes] },
    result: { type: "object", description: "Present when code is ok, approval_required or result_pending." },
    error: {
      type: "object",
      properties: { message: { type: "string" } },
      required: ["message"],
      description: "Present for every other code; message is safe to show, details depend on the code.",
    },
    traceId: { type: "string" },
  },
  required: ["code", "traceId"],
  anyOf: [
    { properties: { code: { enum: [...successCodes] } }, required: ["result"], not: { required: ["error"] } },
    { properties: { code: { enum: agentErrorCodes } }, required: ["error"], not: { required: ["result"] } },
  ],
} as const;
