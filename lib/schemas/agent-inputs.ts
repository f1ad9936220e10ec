// The pieces every agent tool's input is made of, the gateway's own tools and the action kinds' alike
// (lib/actions/<kind>/tools.ts import them; nothing here knows a kind): the order reference as a customer gives
// it, the longest wait of a status tool, and the shape of a tool declaration.
import { z } from "zod";

export const orderReference = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/)
  .describe('The order reference exactly as the customer gave it, for example "ORD-1001".');

/** Longest wait_seconds of a status tool (get_refund_status): below common HTTP client and proxy timeouts (30 s). */
export const MAX_WAIT_SECONDS = 25;

/**
 * A status tool's `wait_seconds`: optional for the server (older clients send only the id), nullable so that vendors
 * whose strict mode wants every property listed as required can send null. `what` names the thing waited on ("the
 * refund's", "the action's"), `busy` what it may be doing meanwhile ("being paid").
 */
export function waitSecondsInput(what: { status: string; busy: string; unchanged: string }) {
  return z
    .int()
    .min(0)
    .max(MAX_WAIT_SECONDS)
    .nullable()
    .optional()
    .describe(
      `Wait up to this many seconds (0–${MAX_WAIT_SECONDS}) for ${what.status} status to change before answering; the answer comes as soon as it changes. Use ${MAX_WAIT_SECONDS} while it awaits a reviewer or is ${what.busy}; null or 0 answers at once. Waiting on an unchanged ${what.unchanged} does not use up the conversation's tool budget.`,
    );
}

/** MCP tool annotations (MCP spec "Tool annotations"). */
export type ToolAnnotations = {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
};

/** One agent tool as the catalogue publishes it: title, hints, when to call it (description), strict input. */
export type ToolDeclaration = {
  title: string;
  annotations: ToolAnnotations;
  description: string;
  input: z.ZodType;
};
