// The harness rules of the seed (seeds/002: "Errores que el agente puede entender", "Pon límite total de
// pasos y reintentos"), written once and used by every example:
//  1. errors go back to the model as tool results (never swallowed, never turned into exceptions);
//  2. a step budget and an error budget per conversation (a valid JSON repeated a thousand times is still an
//     incident); the gateway has its own budgets too, this is the harness's side;
//  3. old tool results are cleared from a long context (the newest few stay; the gateway's trace keeps all);
//  4. a reply that *describes* a tool call without making one is caught, and the model is nudged once.

export type Budget = {
  /** Model turns in one conversation. */
  maxSteps: number;
  /** Error answers from tools before the harness gives up and hands over to a human. */
  maxToolErrors: number;
  /** How many of the newest tool results stay verbatim in the context. */
  keepToolResults: number;
};

export const defaultBudget: Budget = { maxSteps: 8, maxToolErrors: 3, keepToolResults: 3 };

/** What replaces a cleared tool result: short, and says where the full answer is. */
export const CLEARED =
  "[older tool result cleared to save context; it was already used — the gateway's trace keeps it]";

/** Codes after which retrying is pointless: stop and tell the user (DESIGN.md "Outcome codes"). */
export const STOP_CODES = new Set(["permission_denied", "limit_exceeded", "internal_error", "unauthenticated"]);

export const NUDGE =
  "You described a tool call in text but did not make it. Text is not an action: if a tool is needed, call it now with the tool-calling mechanism; otherwise answer the customer.";

/**
 * True when a final text reply talks about calling a tool instead of calling it: it names one of the tools,
 * or says it is calling/using a tool or function, or contains what looks like a call written out as JSON.
 * Deliberately simple and conservative: a false positive costs one extra model turn (the nudge is sent once).
 */
export function describesToolCall(text: string, toolNames: readonly string[]): boolean {
  const t = text.toLowerCase();
  if (toolNames.some((n) => t.includes(n.toLowerCase()))) return true;
  if (
    /\b(i(?:'ll| will| am going to)|let me|now i(?:'ll| will)?)\s+(call|use|invoke|run|execute)\b[^.]{0,60}\b(tool|function)\b/.test(
      t,
    )
  )
    return true;
  if (/\{\s*"(name|tool|function)"\s*:/.test(text) || /<\s*(tool_use|function_call|tool_call)\b/.test(t)) return true;
  return false;
}

/** Tracks the budget of one conversation. */
export class BudgetTracker {
  steps = 0;
  toolErrors = 0;
  nudged = false;
  constructor(readonly budget: Budget = defaultBudget) {}

  /** Counts a model turn; false when the step budget is spent. */
  step(): boolean {
    this.steps += 1;
    return this.steps <= this.budget.maxSteps;
  }

  /** Counts a tool answer; returns why to stop, or null to go on. */
  afterTool(code: string, isError: boolean): string | null {
    if (STOP_CODES.has(code)) return `the gateway answered ${code}`;
    if (isError) this.toolErrors += 1;
    if (this.toolErrors > this.budget.maxToolErrors) return `more than ${this.budget.maxToolErrors} tool errors`;
    return null;
  }

  /** Whether to nudge now (once per conversation). */
  shouldNudge(text: string, toolNames: readonly string[]): boolean {
    if (this.nudged || !describesToolCall(text, toolNames)) return false;
    this.nudged = true;
    return true;
  }
}

/**
 * The support agent's instructions, shared by every example. Waiting is the gateway's job: one
 * get_refund_status call with wait_seconds holds until the reviewer decides (or the wait ends), and waiting
 * on an unchanged refund does not use up the conversation's budget — so the model never polls in a loop.
 */
export const SUPPORT_INSTRUCTIONS =
  "You are a support agent for an online shop. Use the tools to look up the customer's orders and to prepare refunds; " +
  "a prepared refund waits for a human reviewer. While the customer is still with you, wait for the decision with one " +
  "get_refund_status call with wait_seconds 25 (never call it repeatedly without wait_seconds), then tell the customer what was decided, " +
  "or that it still awaits review. If a tool answers an error, read it and fix the call, or ask the customer. Never invent amounts or customer data.";

export const HANDOVER = "I could not finish this safely. A member of our team will pick it up from here.";

export type AgentRun = {
  /** The final text for the customer. */
  text: string;
  /** Why the harness stopped early, or null when the model finished. */
  stoppedBecause: string | null;
  steps: number;
  /** Every tool call made and the code the gateway answered. */
  calls: { name: string; code: string }[];
  nudged: boolean;
};
