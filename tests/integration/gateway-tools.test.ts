// Tool definitions, tool resolution, strict arguments and the HTTP-level errors of the agent contract.
import { describe, expect, it } from "vitest";
import { GET as toolsGET } from "@/app/api/agent/tools/route";
import { db } from "@/lib/server/db/client";
import {
  ana,
  anthropicCall,
  communityKey,
  ES,
  freshTrace,
  headersFor,
  openaiCall,
  send,
  tokenFor,
  webKey,
} from "./gateway-support";

async function listTools(format: string, key: string | null = webKey()) {
  const res = await toolsGET(
    new Request(`http://localhost/api/agent/tools?format=${format}`, {
      headers: key ? { authorization: `Bearer ${key}` } : {},
    }),
  );
  return { status: res.status, body: (await res.json()) as { tools: Record<string, unknown>[]; code?: string } };
}

describe("GET /api/agent/tools", () => {
  it("lists the web_support tools with strict JSON Schema, in both formats", async () => {
    const a = await listTools("anthropic");
    expect(a.status).toBe(200);
    expect(a.body.tools.map((t) => t.name)).toEqual([
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
    for (const t of a.body.tools) {
      expect(t.strict).toBe(true);
      const schema = t.input_schema as {
        additionalProperties: boolean;
        required: string[];
        properties: Record<string, unknown>;
      };
      expect(schema.additionalProperties).toBe(false);
      expect(schema.required.sort()).toEqual(Object.keys(schema.properties).sort());
      expect(String(t.description)).toMatch(/Call it (once )?when/);
    }
    const prepare = a.body.tools.find((t) => t.name === "prepare_refund")!.input_schema as {
      properties: Record<string, { enum?: string[] }>;
    };
    expect(Object.keys(prepare.properties).sort()).toEqual(["order_id", "reason"]);
    expect(prepare.properties.reason!.enum).toContain("damaged_item");

    const o = await listTools("openai");
    expect(o.body.tools[0]).toMatchObject({ type: "function", name: "lookup_order", strict: true });
    expect((o.body.tools[0]!.parameters as { additionalProperties: boolean }).additionalProperties).toBe(false);
  });

  it("lists only create_support_ticket for the community_chat key", async () => {
    const r = await listTools("anthropic", communityKey());
    expect(r.body.tools.map((t) => t.name)).toEqual(["create_support_ticket"]);
  });

  it("refuses a missing key with 401 JSON and an unknown format with 400 JSON", async () => {
    const r = await listTools("anthropic", null);
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("unauthenticated");
    expect((await listTools("gemini")).status).toBe(400);
  });
});

describe("tool resolution", () => {
  it("a hallucinated tool gets unknown_tool with the available tools and the closest name", async () => {
    const a = await send(anthropicCall("search_invoices", { customer: "ana" }), headersFor({ trace: freshTrace() }));
    expect(a.status).toBe(200);
    expect(a.body.is_error).toBe(true);
    expect(a.content.code).toBe("unknown_tool");
    expect(a.content.error!.available_tools).toEqual([
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
    // Nothing like any tool: no suggestion rather than the least distant one.
    expect(a.content.error!.closest).toBeNull();
    const typo = await send(
      anthropicCall("lookup_ordr", { order_id: "ORD-1001" }),
      headersFor({ trace: freshTrace() }),
    );
    expect(typo.content.error!.closest).toBe("lookup_order");
  });

  it("a tool the channel does not allow is answered exactly like a tool that does not exist", async () => {
    const token = await tokenFor(ES, ana);
    const h = headersFor({ key: communityKey(), token, trace: freshTrace() });
    const hidden = await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), h);
    expect(hidden.content.code).toBe("unknown_tool");
    expect(hidden.content.error!.available_tools).toEqual(["create_support_ticket"]);
    expect(hidden.content.error!.closest).toBeNull();
    const missing = await send(anthropicCall("lookup_orderz", { order_id: "ORD-1001" }), h);
    expect(Object.keys(missing.content.error!).sort()).toEqual(Object.keys(hidden.content.error!).sort());
    expect(hidden.raw).not.toMatch(/not allowed|channel/i);
  });
});

describe("strict arguments", () => {
  it("refuses amount, customer_id, currency and recipient written by the model, and makes no proposal", async () => {
    const token = await tokenFor(ES, ana);
    const before = await db().proposal.count();
    const r = await send(
      anthropicCall("prepare_refund", {
        order_id: "ORD-1002",
        reason: "damaged_item",
        amount: 1,
        customer_id: "cus_x",
        currency: "USD",
        recipient: { iban: "x" },
      }),
      headersFor({ token, trace: freshTrace() }),
    );
    expect(r.content.code).toBe("invalid_arguments");
    const problems = r.content.error!.problems as { path: string; expected: string }[];
    expect(problems.map((p) => p.path).sort()).toEqual(["$.amount", "$.currency", "$.customer_id", "$.recipient"]);
    expect(await db().proposal.count()).toBe(before);
  });

  it("lists every problem with its path and what was expected", async () => {
    const token = await tokenFor(ES, ana);
    const r = await send(
      openaiCall("prepare_refund", { order_id: 1001, reason: "because" }),
      headersFor({ token, trace: freshTrace() }),
    );
    expect(r.body.type).toBe("function_call_output");
    expect(r.content.code).toBe("invalid_arguments");
    const problems = r.content.error!.problems as { path: string; expected: string }[];
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "$.order_id", expected: "string" }),
        expect.objectContaining({ path: "$.reason", expected: expect.stringContaining('"damaged_item"') }),
      ]),
    );
    const missing = await send(anthropicCall("create_support_ticket", {}), headersFor({ token, trace: freshTrace() }));
    expect((missing.content.error!.problems as { path: string }[]).map((p) => p.path).sort()).toEqual([
      "$.category",
      "$.priority",
      "$.summary",
    ]);
  });

  it("OpenAI arguments that are not JSON are an argument problem, not a crash", async () => {
    const r = await send(
      { type: "function_call", call_id: "c1", name: "lookup_order", arguments: "{order_id: ORD-1001" },
      headersFor({ trace: freshTrace() }),
    );
    expect(r.status).toBe(200);
    expect(r.content.code).toBe("invalid_arguments");
    expect(r.body.call_id).toBe("c1");
  });
});

describe("HTTP-level errors", () => {
  it("missing, unknown and revoked keys are 401 with the neutral JSON body (the body is not read before the key is verified)", async () => {
    const missing = await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ key: null }));
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ code: "unauthenticated", error: { message: expect.any(String) } });
    expect(missing.body.type).toBeUndefined();
    expect(missing.traceId).toBe(missing.content.traceId);

    const unknown = await send(
      openaiCall("lookup_order", { order_id: "ORD-1001" }),
      headersFor({ key: "agk_not_a_real_key_0000000000" }),
    );
    expect(unknown.status).toBe(401);
    expect(unknown.content.code).toBe("unauthenticated");

    const k = await db().agentKey.findFirstOrThrow({
      where: { tenant: { slug: ES }, channel: { slug: "community_chat" } },
    });
    await db().agentKey.update({ where: { id: k.id }, data: { revokedAt: new Date() } });
    const revoked = await send(anthropicCall("create_support_ticket", {}), headersFor({ key: communityKey() }));
    expect(revoked.status).toBe(401);
    expect(revoked.content.code).toBe("unauthenticated");
    await db().agentKey.update({ where: { id: k.id }, data: { revokedAt: null } });
  });

  it("a body that is not JSON is 400 with a JSON body", async () => {
    const r = await send(null, headersFor(), "this is { not json");
    expect(r.status).toBe(400);
    expect(r.content.code).toBe("invalid_arguments");
    expect(r.traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it("honours traceparent, then a well-formed X-Trace-Id, else generates one", async () => {
    const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const a = await send(anthropicCall("nope", {}), {
      ...headersFor({ trace: "ignored-because-traceparent" }),
      traceparent: tp,
    });
    expect(a.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(a.content.traceId).toBe(a.traceId);
    const b = await send(anthropicCall("nope", {}), headersFor({ trace: "my-trace-000001" }));
    expect(b.traceId).toBe("my-trace-000001");
    const c = await send(anthropicCall("nope", {}), headersFor({ trace: "bad trace id with spaces <script>" }));
    expect(c.traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it("records when a key was last used", async () => {
    const k = await db().agentKey.findFirstOrThrow({
      where: { tenant: { slug: ES }, channel: { slug: "web_support" } },
    });
    await db().agentKey.update({ where: { id: k.id }, data: { lastUsedAt: null } });
    const before = Date.now();
    await send(anthropicCall("nope", {}), headersFor({ trace: freshTrace() }));
    const after = await db().agentKey.findUniqueOrThrow({ where: { id: k.id } });
    expect(after.lastUsedAt?.getTime()).toBeGreaterThanOrEqual(before - 2000);
  });

  it("records model and prompt version in the audit event", async () => {
    const trace = freshTrace();
    await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), {
      ...headersFor({ trace, model: "claude-test-1" }),
      "x-agent-prompt-version": "support-v7",
    });
    const ev = await db().auditEvent.findFirstOrThrow({ where: { traceId: trace } });
    expect(ev).toMatchObject({
      model: "claude-test-1",
      promptVersion: "support-v7",
      channel: "web_support",
      action: "tool:lookup_order",
      outcome: "permission_denied",
    });
  });
});
