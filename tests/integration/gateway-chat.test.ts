// OpenAI Chat Completions beside Anthropic and Responses: tool definitions and a tool_calls[i] round trip.
import { describe, expect, it } from "vitest";
import { GET as toolsGET } from "@/app/api/agent/tools/route";
import { db } from "@/lib/server/db/client";
import { ana, anthropicCall, chatCall, ES, freshTrace, headersFor, send, tokenFor, webKey } from "./gateway-support";

describe("OpenAI Chat Completions", () => {
  it("GET /api/agent/tools?format=openai_chat → {type:'function', function:{name, description, parameters, strict}}", async () => {
    const res = await toolsGET(
      new Request("http://localhost/api/agent/tools?format=openai_chat", {
        headers: { authorization: `Bearer ${webKey()}` },
      }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { format: string; tools: { type: string; function: Record<string, unknown> }[] };
    expect(body.format).toBe("openai_chat");
    expect(body.tools.map((t) => t.function.name)).toEqual([
      "lookup_order",
      "prepare_refund",
      "get_refund_status",
      "prepare_address_change",
      "prepare_order_cancellation",
      "prepare_contact_change",
      "prepare_replacement_order",
      "prepare_bulk_message",
      "get_action_status",
      "create_support_ticket",
    ]);
    for (const t of body.tools) {
      expect(Object.keys(t).sort()).toEqual(["function", "type"]);
      expect(t.type).toBe("function");
      expect(Object.keys(t.function).sort()).toEqual(["description", "name", "parameters", "strict"]);
      expect(t.function.strict).toBe(true);
      expect(JSON.stringify(t.function.parameters)).not.toMatch(/minLength|maxLength|"pattern"|"format"/);
    }
  });

  it("a tool_calls[i] item is answered {role:'tool', tool_call_id, content} with the same result as Anthropic", async () => {
    const token = await tokenFor(ES, ana);
    const call = chatCall("prepare_refund", { order_id: "ORD-1001", reason: "damaged_item" });
    const c = await send(call, headersFor({ token, trace: freshTrace() }));
    expect(c.status).toBe(200);
    expect(Object.keys(c.body).sort()).toEqual(["content", "role", "tool_call_id"]);
    expect(c.body).toMatchObject({ role: "tool", tool_call_id: call.id });
    expect(c.content.code).toBe("approval_required");
    const a = await send(
      anthropicCall("prepare_refund", { order_id: "ORD-1001", reason: "damaged_item" }),
      headersFor({ token, trace: freshTrace() }),
    );
    expect(a.content.result).toEqual(c.content.result);
    const row = await db().proposal.findUniqueOrThrow({ where: { id: String(c.content.result!.proposal_id) } });
    expect(row.status).toBe("pending_approval");
    const audit = await db().auditEvent.findFirst({
      where: { traceId: c.content.traceId, action: "tool:prepare_refund" },
    });
    expect((audit?.data as { transport?: string } | null)?.transport).toBe("openai_chat");
  });

  it("errors come back as tool messages too, with the code inside content", async () => {
    const token = await tokenFor(ES, ana);
    const bad = await send(
      chatCall("prepare_refund", { order_id: "ORD-1001", reason: "damaged_item", amount: 1 }),
      headersFor({ token, trace: freshTrace() }),
    );
    expect(bad.body.role).toBe("tool");
    expect(bad.content.code).toBe("invalid_arguments");
    const unknown = await send(chatCall("search_invoices", {}), headersFor({ token, trace: freshTrace() }));
    expect(unknown.content.code).toBe("unknown_tool");
  });

  it("malformed Chat items keep the Chat shape: arguments not JSON, function missing, wrong type", async () => {
    const h = headersFor({ trace: freshTrace() });
    const notJson = await send(
      { id: "call_x1", type: "function", function: { name: "lookup_order", arguments: "{order_id:" } },
      h,
    );
    expect(notJson.body).toMatchObject({ role: "tool", tool_call_id: "call_x1" });
    expect(notJson.content.code).toBe("invalid_arguments");
    expect(JSON.stringify(notJson.content.error!.problems)).toContain("$.function.arguments");

    const noFn = await send({ id: "call_x2", type: "function", function: "lookup_order" }, h);
    expect(noFn.body).toMatchObject({ role: "tool", tool_call_id: "call_x2" });
    expect(JSON.stringify(noFn.content.error!.problems)).toContain("$.function");

    const wrongType = await send(
      { id: "call_x3", type: "tool", function: { name: "lookup_order", arguments: "{}" } },
      h,
    );
    expect(wrongType.body).toMatchObject({ role: "tool", tool_call_id: "call_x3" });
    expect(wrongType.content.error!.problems).toContainEqual(
      expect.objectContaining({ path: "$.type", expected: '"function"' }),
    );
  });

  it("a Chat call without a valid key is a 401 with the neutral body (nothing of it is read)", async () => {
    const r = await send(chatCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ key: "not-a-real-key-123" }));
    expect(r.status).toBe(401);
    expect(r.body.role).toBeUndefined();
    expect(r.content.code).toBe("unauthenticated");
  });
});
