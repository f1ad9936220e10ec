import "server-only";
import { performance } from "node:perf_hooks";
import {
  closestName,
  failure,
  isErrorOutcome,
  validationProblems,
  AGENT_UNKNOWN_FIELD_NOTE,
  type EnvelopeProblem,
  type ToolOutcome,
} from "@/lib/domain/agent-protocol";
import type { TraceParent } from "@/lib/domain/agent-protocol";
import { isAppError } from "@/lib/domain/outcome";
import { scrubText, truncateText } from "@/lib/domain/redaction";
import { auditFingerprint } from "@/lib/server/audit/fingerprint";
import { isToolName } from "@/lib/schemas/tools";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import type { Sql } from "@/lib/server/db/sql";
import { sqlPool, withPgTransaction } from "@/lib/server/db/pg";
import { log } from "@/lib/server/log";
import { traceToolCall } from "@/lib/server/telemetry/agent-trace";
import type { AgentCaller } from "./authenticate-agent-key";
import { chargeBudgets, chargeError, releaseTraceCall, repeatKey } from "./budgets";
import { dynamicToolsFor, findDynamicTool } from "./dynamic-tools";
import { parseToolInput, toolHandlers } from "./tool-handlers";
import { GATEWAY_TX, type HandlerResult, type ToolContext } from "./tool-context";
import { withConfirmLink } from "@/lib/server/confirmations/issue-confirm-link";
import { endUserTokenReason, verifyEndUserToken } from "./verify-end-user";

/** Everything about one call that does not come from the model's arguments. */
export type CallMeta = {
  traceId: string;
  transport: "anthropic" | "openai" | "openai_chat" | "mcp";
  callId: string;
  endUserToken: string | null;
  model: string | null;
  promptVersion: string | null;
  /** The client went away (HTTP request aborted): a waiting call stops waiting. */
  signal?: AbortSignal;
  /** The caller's W3C traceparent (header or MCP `_meta`): the parent of the call's span. */
  parent?: TraceParent | null;
};

export type CallResult = {
  outcome: ToolOutcome;
  proposal: { id: string; hash: string } | null;
  traceresponse?: string | null;
};

type AuditExtra = {
  proposal?: { id: string; hash: string } | null;
  audit?: Record<string, unknown>;
  knownPersonal?: string[];
  madeFingerprints?: (string | null)[];
  endUser?: string | null;
  clear?: readonly string[];
};

/**
 * One tool call, whatever the transport (Anthropic, OpenAI, MCP): budget → resolve tool → validate
 * strictly → authorize the end user → run the use case and write its audit event in ONE transaction.
 * Every path ends in a documented outcome and an audit event; nothing here throws.
 */
export async function executeToolCall(
  caller: AgentCaller,
  meta: CallMeta,
  name: string,
  args: unknown,
  envelopeProblems: EnvelopeProblem[] = [],
): Promise<CallResult> {
  const who = { tenantId: caller.tenantId, agentKeyId: caller.keyId, channel: caller.channelSlug };
  return traceToolCall({ name, callId: meta.callId, transport: meta.transport, trace: meta, ...who }, () =>
    runToolCall({ caller, meta, name, args, envelopeProblems }),
  );
}

/** One call as it arrived: who calls, the call's meta, the tool's name and arguments, the envelope's problems. */
type ToolCall = {
  caller: AgentCaller;
  meta: CallMeta;
  name: string;
  args: unknown;
  envelopeProblems: EnvelopeProblem[];
};

async function runToolCall(call: ToolCall): Promise<CallResult> {
  const { caller, meta, name, args } = call;
  const started = performance.now();
  try {
    const result = await dispatch(call);
    if (isErrorOutcome(result.outcome) && result.outcome.code !== "limit_exceeded") {
      await chargeError(caller.tenantId, meta.traceId).catch((error) => logFailure("budget", meta, error));
    }
    // Safe fields only: the tool name is caller-written text, so it is scrubbed like everything else (only
    // when the line is written: the scrub costs an HMAC per masked value).
    if (log.isLevelEnabled("info"))
      log.info(
        {
          traceId: meta.traceId,
          agentKeyId: caller.keyId,
          transport: meta.transport,
          tool: truncateText(scrubText(name, auditFingerprint), 64),
          code: result.outcome.code,
          ms: Math.round(performance.now() - started),
        },
        "agent tool call",
      );
    return result;
  } catch (error) {
    logFailure("tool call", meta, error);
    const outcome = failure(
      "internal_error",
      "Something went wrong on our side. Stop and let a human look up this trace.",
    );
    await writeAudit(null, caller, meta, name, args, outcome, {}).catch((e) => logFailure("audit", meta, e));
    await chargeError(caller.tenantId, meta.traceId).catch(() => undefined);
    return { outcome, proposal: null };
  }
}

async function dispatch({ caller, meta, name, args, envelopeProblems }: ToolCall): Promise<CallResult> {
  const answer = async (outcome: ToolOutcome, extra: AuditExtra = {}): Promise<CallResult> => {
    await writeAudit(null, caller, meta, name, args, outcome, extra);
    return { outcome, proposal: extra.proposal ?? null };
  };

  // Everything that needs no database first (envelope, tool, arguments, the end user's token), so that the
  // budgets are charged in ONE statement (chargeBudgets); the answers keep their order: key window, trace
  // budget, envelope, tool, arguments, end user, end user's window.
  // A catalogue tool the key may call, or one of the tenant's declared tools (never one shadowing a built-in).
  const builtin = isToolName(name) && caller.tools.includes(name) ? name : null;
  const dynamic = builtin ? null : await findDynamicTool(caller, name);
  const tool: string | null = builtin ?? dynamic?.name ?? null;
  const handler = builtin ? toolHandlers[builtin] : (dynamic?.handler ?? null);
  const parsed =
    tool && envelopeProblems.length === 0 ? (builtin ? parseToolInput(builtin, args) : dynamic!.parse(args)) : null;
  const endUser = parsed?.success ? await verifyEndUserToken(meta.endUserToken, caller) : null;
  const verifiedCustomer = endUser?.ok ? endUser.customerId : null;

  const repeat = repeatKey(name, args);
  const charged = await chargeBudgets(caller.tenantId, {
    keyId: caller.keyId,
    traceId: meta.traceId,
    repeat,
    customerId: verifiedCustomer,
  });
  if (charged.key) return answer(charged.key);
  if (charged.trace) return answer(charged.trace);

  if (envelopeProblems.length > 0) {
    return answer(
      failure("invalid_arguments", "The tool call is malformed. Fix the listed problems and call again.", {
        problems: envelopeProblems,
      }),
    );
  }

  // Tools not allowed on this key's channel are not revealed: same answer as a tool that does not exist.
  if (!tool || !handler || !parsed) {
    const available = [...caller.tools, ...(await dynamicToolsFor(caller)).map((t) => t.name)];
    const closest = closestName(name, available);
    return answer(
      // Echo the name only when it looks like a tool name: answers never reflect arbitrary text.
      failure(
        "unknown_tool",
        `There is no tool named ${/^[A-Za-z0-9_.-]{1,64}$/.test(name) ? JSON.stringify(name) : "like that"} for this agent. Call one of the available tools.`,
        {
          available_tools: available,
          closest: closest,
        },
      ),
    );
  }

  if (!parsed.success) {
    return answer(
      failure(
        "invalid_arguments",
        `The arguments of ${tool} are invalid. Fix every listed problem, or ask the customer for the missing information.`,
        {
          problems: validationProblems(parsed.error.issues, {}, AGENT_UNKNOWN_FIELD_NOTE),
        },
      ),
      { clear: handler.auditClear },
    );
  }

  if (!endUser?.ok) {
    return answer(
      failure(
        "permission_denied",
        "The end user's identity could not be verified (the token is invalid or expired). Ask the customer to sign in again; do not retry.",
        // The same instruction for the agent whatever the problem; the reason tells the integrator which one
        // (a fixed list, never token content): end_user_token_expired, _too_old, _wrong_audience, …
        {
          reason: endUserTokenReason(endUser?.reason ?? "malformed"),
        },
      ),
      // The reason is one of a fixed list (never token content): kept in clear for the investigator.
      {
        clear: [...handler.auditClear, "end_user_problem"],
        audit: { end_user_problem: endUser?.reason ?? "malformed" },
      },
    );
  }
  const customerId = verifiedCustomer;
  if (customerId && charged.endUser) return answer(charged.endUser, { clear: handler.auditClear, endUser: customerId });
  if (handler.needsCustomer && !customerId) {
    return answer(
      failure(
        "permission_denied",
        `${tool} needs a signed-in customer. Ask the customer to sign in; do not look for another way.`,
        {
          reason: "end_user_required",
        },
      ),
      { clear: handler.auditClear },
    );
  }

  const ctx: ToolContext = { caller, customerId, traceId: meta.traceId };
  if (handler.wait) {
    // Before the transaction (a wait holds no connection); a wait on an unchanged proposal is given back to
    // the trace's budget, so an agent waiting for a reviewer never burns its conversation.
    ctx.wait = await handler.wait(parsed.data as never, ctx, meta.signal);
    if (ctx.wait?.unchanged) await releaseTraceCall(caller.tenantId, meta.traceId, repeat);
  }
  try {
    if (handler.outside) ctx.outside = await handler.outside(parsed.data as never, ctx);
    const audited = async (tx: Sql, r: HandlerResult): Promise<CallResult> => {
      // Same transaction as the effect, written last: no effect without its audit event.
      await writeAudit(tx, caller, meta, tool, args, r.outcome, {
        ...r,
        endUser: customerId,
        clear: handler.auditClear,
      });
      return { outcome: r.outcome, proposal: r.proposal ?? null };
    };
    // Every tool: ONE pg transaction holds the effect, its notifications and its audit event.
    return await withPgTransaction(async (tx) => {
      const r = await handler.run(tx, parsed.data as never, ctx);
      // A proposal that awaits its customer: the answer carries a fresh one-time confirm link (not audited).
      return audited(tx, {
        ...r,
        outcome: await withConfirmLink(tx, caller.tenantId, customerId, r.outcome, r.proposal),
      });
    }, GATEWAY_TX);
  } catch (error) {
    if (!isAppError(error) || error.code === "internal_error") throw error;
    // A use case refused with a documented code: nothing was written; record the refusal.
    const outcome = failure(error.code, error.message, error.details ?? {});
    return answer(outcome, { endUser: customerId, clear: handler.auditClear });
  }
}

async function writeAudit(
  tx: Sql | null,
  caller: AgentCaller,
  meta: CallMeta,
  name: string,
  args: unknown,
  outcome: ToolOutcome,
  extra: AuditExtra,
): Promise<void> {
  const input = {
    tenantId: caller.tenantId,
    traceId: meta.traceId,
    actor: { type: "agent" as const, id: caller.keyId, authMethod: "agent_key" },
    action: `tool:${name.slice(0, 64)}`,
    outcome: outcome.code,
    proposal: extra.proposal ?? null,
    model: meta.model,
    promptVersion: meta.promptVersion,
    channel: caller.channelSlug,
    endUser: extra.endUser ?? null,
    data: {
      transport: meta.transport,
      call_id: meta.callId,
      arguments: args,
      ...(isErrorOutcome(outcome) ? { error: outcome.error } : {}),
      ...(extra.audit ?? {}),
    },
    redaction: {
      clear: extra.clear ?? [],
      knownPersonal: extra.knownPersonal,
      madeFingerprints: extra.madeFingerprints,
    },
  };
  // Without a transaction: the event alone, one statement (atomic on its own), auto-committed on the pool.
  await recordAuditEvent(tx ?? sqlPool(), input);
}

/** Logs what went wrong, scrubbed (error messages may hold SQL parameters or personal data). */
export function logFailure(what: string, meta: { traceId: string }, error: unknown): void {
  const e = error as { name?: string; code?: string; message?: string; stack?: string } | null;
  const clean = (s: string | undefined, max: number) =>
    s ? truncateText(scrubText(s, auditFingerprint), max) : undefined;
  log.error(
    {
      traceId: meta.traceId,
      err: {
        name: e?.name ?? typeof error,
        code: typeof e?.code === "string" ? e.code : undefined,
        message: clean(e?.message, 300),
        stack: clean(e?.stack?.split("\n").slice(1, 6).join("\n"), 800),
      },
    },
    `${what} failed`,
  );
}
