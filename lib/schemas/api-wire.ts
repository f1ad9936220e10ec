// The wire shapes of the HTTP API that have no input schema of their own elsewhere: the agent contract's
// envelopes in and out (docs/design.md "Agent HTTP contract"; parsed by lib/domain/agent-protocol.ts, answered by
// toolResponse there) and the common error bodies (lib/server/http/*-route.ts). They describe what the
// server sends and accepts for the OpenAPI document (lib/schemas/openapi.ts); the integration test
// tests/integration/openapi-responses.test.ts holds real answers to them, so they cannot drift silently.
import { z } from "zod";
import { errorCodes } from "@/lib/domain/outcome";
import { toolOutputSchema } from "@/lib/schemas/tools";

const callId = z.string().min(1).max(200);
const toolName = z
  .string()
  .min(1)
  .max(128)
  .describe("The tool's name as the model wrote it (an unknown name answers unknown_tool, with the closest names).");

/** Anthropic Messages `tool_use` block, as the model returned it. */
export const anthropicToolUse = z
  .object({ type: z.literal("tool_use"), id: callId, name: toolName, input: z.record(z.string(), z.unknown()) })
  .meta({ id: "AnthropicToolUse", title: "Anthropic tool_use block" });

/** OpenAI Responses `function_call` item; `arguments` is a string of JSON (an object is tolerated). */
export const openaiFunctionCall = z
  .object({
    type: z.literal("function_call"),
    call_id: callId,
    name: toolName,
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]),
  })
  .meta({ id: "OpenAIFunctionCall", title: "OpenAI Responses function_call item" });

/** OpenAI Chat Completions `tool_calls[i]` item. */
export const openaiChatToolCall = z
  .object({
    id: callId,
    type: z.literal("function"),
    function: z.object({ name: toolName, arguments: z.union([z.string(), z.record(z.string(), z.unknown())]) }),
  })
  .meta({ id: "OpenAIChatToolCall", title: "OpenAI Chat Completions tool_calls[i] item" });

export const toolCallRequest = z.union([anthropicToolUse, openaiFunctionCall, openaiChatToolCall]);

/**
 * The answer's content string: JSON of `{code, result | error, traceId}`. The same envelope is the MCP
 * `outputSchema` (toolOutputSchema), so both transports are described by one schema.
 */
const outcomeString = z.string().meta({
  description:
    'A string of JSON: {"code":"ok"|"approval_required"|"result_pending","result":{…},"traceId"} or {"code":<error code>,"error":{"message",…},"traceId"}.',
  contentMediaType: "application/json",
  contentSchema: toolOutputSchema,
});

export const anthropicToolResult = z
  .object({ type: z.literal("tool_result"), tool_use_id: z.string(), is_error: z.boolean(), content: outcomeString })
  .meta({ id: "AnthropicToolResult", title: "Anthropic tool_result block (send it back to the model as it is)" });

export const openaiFunctionCallOutput = z
  .object({ type: z.literal("function_call_output"), call_id: z.string(), output: outcomeString })
  .meta({ id: "OpenAIFunctionCallOutput", title: "OpenAI Responses function_call_output item" });

export const openaiChatToolMessage = z
  .object({ role: z.literal("tool"), tool_call_id: z.string(), content: outcomeString })
  .meta({ id: "OpenAIChatToolMessage", title: "OpenAI Chat Completions tool message" });

export const toolCallAnswer = z.union([anthropicToolResult, openaiFunctionCallOutput, openaiChatToolMessage]);

/** One validation problem: where, what was expected, what was wrong. */
export const problem = z
  .object({ path: z.string(), expected: z.string(), message: z.string() })
  .meta({ id: "Problem" });

/** `error` of every error body: a message safe to show, plus details that depend on the code. */
const errorDetail = z.looseObject({
  message: z.string(),
  problems: z.array(problem).optional(),
  retry_after_seconds: z.int().min(0).optional(),
});

/** The agent routes' answer when the caller's family is not known yet (401, 429 before the body is read; JSON 404). */
export const traceableError = z.object({ code: z.enum(errorCodes), error: errorDetail, traceId: z.string() }).meta({
  id: "TraceableError",
  description: "The common error shape with the request's trace id (also in the X-Trace-Id header).",
});

/** Staff, admin and public routes: `{code, error:{message,…}}` with the HTTP status of the code. */
export const apiError = z
  .object({
    code: z.enum(errorCodes),
    error: errorDetail,
    traceId: z.string().optional(),
    problems: z.array(problem).optional(),
  })
  .meta({
    id: "Error",
    description: 'The common error shape: a stable code (docs/design.md "Outcome codes") and a message safe to show.',
  });

/** GET /api/agent/tools answer. */
export const toolListAnswer = z
  .object({
    format: z.enum(["anthropic", "openai", "openai_chat"]),
    tools: z.array(z.record(z.string(), z.unknown())),
    traceId: z.string(),
  })
  .meta({ id: "ToolList" });
