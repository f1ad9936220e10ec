// The agent tools' argument schemas: defined once, used to validate every call (HTTP and MCP) and to
// publish the tool definitions (GET /api/agent/tools, MCP tools/list) through z.toJSONSchema.
// Every object is strict: an unknown field (amount, customer_id, currency, recipient…) is refused,
// because identity, tenant, amount and recipient are derived by the server, never taken from a model.
import { z } from "zod";

export const orderReference = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/)
  .describe('The order reference exactly as the customer gave it, for example "ORD-1001".');

export const refundReasons = ["damaged_item", "not_received", "wrong_item", "duplicate_charge", "cancelled_order", "other"] as const;
export const ticketCategories = ["billing", "technical", "complaint"] as const;
export const ticketPriorities = ["low", "normal", "urgent"] as const;
export const TICKET_SUMMARY_MAX = 500;

export const lookupOrderInput = z.strictObject({ order_id: orderReference });
export type LookupOrderInput = z.infer<typeof lookupOrderInput>;

export const prepareRefundInput = z.strictObject({
  order_id: orderReference,
  reason: z.enum(refundReasons).describe("Why the customer wants the refund, as they explained it. Use other when nothing else fits."),
});
export type PrepareRefundInput = z.infer<typeof prepareRefundInput>;

export const getRefundStatusInput = z.strictObject({
  proposal_id: z.uuid().describe("The proposal id that prepare_refund returned."),
});
export type GetRefundStatusInput = z.infer<typeof getRefundStatusInput>;

export const createSupportTicketInput = z.strictObject({
  category: z.enum(ticketCategories).describe("billing: charges, invoices, refunds questions; technical: the product or site does not work; complaint: anything else the customer is unhappy about."),
  summary: z
    .string()
    .trim()
    .min(10)
    .max(TICKET_SUMMARY_MAX)
    // NUL cannot be stored in PostgreSQL text; other control characters are harmless.
    // eslint-disable-next-line no-control-regex -- refusing NUL is the point of this check
    .regex(/^[^\u0000]*$/)
    .describe(`What the customer needs, in one or two sentences (10–${TICKET_SUMMARY_MAX} characters). Do not include card numbers, passwords or other secrets.`),
  priority: z.enum(ticketPriorities).describe("urgent only when the customer is blocked right now; normal by default."),
});
export type CreateSupportTicketInput = z.infer<typeof createSupportTicketInput>;

/** The tool catalogue: name, when to call it, its argument schema. Names are boring on purpose. */
export const toolCatalog = {
  lookup_order: {
    description:
      "Look up one order of the signed-in customer: status, items, amounts paid and refunded, and how much can still be refunded. Call it when the customer asks about an order they name, before preparing a refund.",
    input: lookupOrderInput,
  },
  prepare_refund: {
    description:
      "Prepare a refund of an order of the signed-in customer for a human to approve. The server decides the amount (everything still refundable) and the recipient (the original payment); nothing is paid yet. Call it once when the customer asks for a refund and the order is theirs; then tell them it awaits review. Calling it again returns the same pending proposal.",
    input: prepareRefundInput,
  },
  get_refund_status: {
    description:
      "Get the status of a refund proposal prepared earlier (awaiting approval, in progress, done, rejected with the reviewer's reason, expired). Call it when the customer asks how their refund is going. Never re-submit a refund instead.",
    input: getRefundStatusInput,
  },
  create_support_ticket: {
    description:
      "Open a support ticket for a human agent to follow up. Call it when the customer needs something no other tool can do, or asks to talk to a person.",
    input: createSupportTicketInput,
  },
} as const satisfies Record<string, { description: string; input: z.ZodType }>;

export type ToolName = keyof typeof toolCatalog;
export const toolNames = Object.keys(toolCatalog) as ToolName[];

export function isToolName(value: string): value is ToolName {
  return Object.hasOwn(toolCatalog, value);
}

/** JSON Schema of a tool's arguments: strict, every property required, no extra properties. */
export function toolJsonSchema(name: ToolName): Record<string, unknown> {
  const schema = z.toJSONSchema(toolCatalog[name].input) as Record<string, unknown>;
  delete schema.$schema;
  return { ...schema, additionalProperties: false };
}

export type ToolFormat = "anthropic" | "openai";

/** Tool definitions for Anthropic (Messages API `tools`) or OpenAI (Responses API function tools). */
export function toolDefinitions(names: readonly ToolName[], format: ToolFormat) {
  return names.map((name) => {
    const { description } = toolCatalog[name];
    const parameters = toolJsonSchema(name);
    return format === "anthropic"
      ? { name, description, input_schema: parameters, strict: true }
      : { type: "function" as const, name, description, parameters, strict: true };
  });
}
