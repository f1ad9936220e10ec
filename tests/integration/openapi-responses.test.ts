// Real answers of the agent gateway, over HTTP, checked against the schemas that GET /api/openapi.json (also
// fetched over HTTP) gives for them: the prepare call's error answers in each family (and the JSON string
// inside, against its contentSchema), the 401 without a key, the 400 for a body that is not JSON.
// A JSON Schema 2020-12 validator (ajv) reads the document as it is served, $refs and all.
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as openapiGET } from "@/app/api/openapi.json/route";
import { POST as toolCallsPOST } from "@/app/api/agent/tool-calls/route";
import { buildOpenApiDocument } from "@/lib/schemas/openapi";
import { startGatewayServer } from "../support/gateway-http-server";
import { ES, ana, anthropicCall, chatCall, freshTrace, openaiCall, tokenFor, webKey } from "./gateway-support";

const DOC_ID = "https://gateway.invalid/api/openapi.json";
let server: Awaited<ReturnType<typeof startGatewayServer>>;
let doc: Record<string, unknown>;
let ajv: Ajv2020;

beforeAll(async () => {
  server = await startGatewayServer({
    "/api/openapi.json": { methods: { GET: async () => openapiGET() } },
    "/api/agent/tool-calls": { methods: { POST: toolCallsPOST } },
  });
  const res = await fetch(`${server.url}/api/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/json");
  doc = (await res.json()) as Record<string, unknown>;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
});
afterAll(async () => {
  await server?.close();
});

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/** Validates `value` against the document's response schema of POST /api/agent/tool-calls for `status`. */
function checkResponse(status: number, value: unknown): string[] {
  const validate = ajv.getSchema(
    `${DOC_ID}#/${pointer("paths", "/api/agent/tool-calls", "post", "responses", String(status), "content", "application/json", "schema")}`,
  );
  if (!validate) throw new Error(`the document has no schema for ${status}`);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/** The contentSchema the document gives the answer's JSON string (the {code, result|error, traceId} envelope). */
function checkContent(component: string, field: string, content: string): string[] {
  const validate = ajv.getSchema(
    `${DOC_ID}#/${pointer("components", "schemas", component, "properties", field, "contentSchema")}`,
  );
  if (!validate) throw new Error(`${component}.${field} has no contentSchema`);
  return validate(JSON.parse(content)) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

async function post(body: unknown, opts: { key?: string | null; raw?: string } = {}) {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-trace-id": freshTrace(),
    "x-end-user-token": await tokenFor(ES, ana),
  };
  const key = opts.key === undefined ? webKey(ES) : opts.key;
  if (key) headers.authorization = `Bearer ${key}`;
  const res = await fetch(`${server.url}/api/agent/tool-calls`, {
    method: "POST",
    headers,
    body: opts.raw ?? JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("the agent prepare call's answers match GET /api/openapi.json", () => {
  it("the document served is the one the code builds", () => {
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it("Anthropic family: an invented amount field is invalid_arguments in a tool_result that matches the schema", async () => {
    const r = await post(anthropicCall("prepare_refund", { order_id: "ORD-1001", reason: "damaged_item", amount: 1 }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ type: "tool_result", is_error: true });
    expect(JSON.parse(r.body.content as string)).toMatchObject({ code: "invalid_arguments" });
    expect(checkResponse(200, r.body)).toEqual([]);
    expect(checkContent("AnthropicToolResult", "content", r.body.content as string)).toEqual([]);
  });

  it("OpenAI Responses family: an order that is not the customer's answers in a function_call_output that matches", async () => {
    const r = await post(openaiCall("prepare_refund", { order_id: "ORD-NOT-THERE", reason: "other" }));
    expect(r.status).toBe(200);
    expect(r.body.type).toBe("function_call_output");
    expect(JSON.parse(r.body.output as string).code).toBe("not_found");
    expect(checkResponse(200, r.body)).toEqual([]);
    expect(checkContent("OpenAIFunctionCallOutput", "output", r.body.output as string)).toEqual([]);
  });

  it("OpenAI Chat family: a reason outside the list, and an invented tool name, each match", async () => {
    const bad = await post(chatCall("prepare_refund", { order_id: "ORD-1001", reason: "because" }));
    expect(JSON.parse(bad.body.content as string).code).toBe("invalid_arguments");
    expect(checkResponse(200, bad.body)).toEqual([]);
    expect(checkContent("OpenAIChatToolMessage", "content", bad.body.content as string)).toEqual([]);

    const invented = await post(chatCall("prepare_refund_now", { order_id: "ORD-1001" }));
    expect(JSON.parse(invented.body.content as string).code).toBe("unknown_tool");
    expect(checkResponse(200, invented.body)).toEqual([]);
    expect(checkContent("OpenAIChatToolMessage", "content", invented.body.content as string)).toEqual([]);
  });

  it("a successful prepare (approval_required) matches as well", async () => {
    const r = await post(anthropicCall("prepare_refund", { order_id: "ORD-1001", reason: "damaged_item" }));
    expect(JSON.parse(r.body.content as string).code).toBe("approval_required");
    expect(checkResponse(200, r.body)).toEqual([]);
    expect(checkContent("AnthropicToolResult", "content", r.body.content as string)).toEqual([]);
  });

  it("no key: 401 in the neutral {code, error, traceId} the document names", async () => {
    const r = await post(anthropicCall("prepare_refund", { order_id: "ORD-1001", reason: "other" }), { key: null });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("unauthenticated");
    expect(checkResponse(401, r.body)).toEqual([]);
  });

  it("a body that is not JSON: 400 in the caller's (default) family, as documented", async () => {
    const r = await post(null, { raw: "{not json" });
    expect(r.status).toBe(400);
    expect(checkResponse(400, r.body)).toEqual([]);
    expect(JSON.parse(r.body.content as string).code).toBe("invalid_arguments");
  });

  it("the schemas do refuse an answer that breaks the contract (these checks can fail)", async () => {
    const r = await post(anthropicCall("prepare_refund", { order_id: "ORD-1001", reason: "other", amount: 5 }));
    expect(checkResponse(200, { ...r.body, is_error: "yes" })).not.toEqual([]);
    const inner = JSON.parse(r.body.content as string) as Record<string, unknown>;
    expect(
      checkContent("AnthropicToolResult", "content", JSON.stringify({ ...inner, traceId: undefined })),
    ).not.toEqual([]);
    expect(
      checkContent("AnthropicToolResult", "content", JSON.stringify({ ...inner, code: "approval_required" })),
    ).not.toEqual([]);
    expect(checkResponse(401, { code: "unauthenticated", error: { message: "x" } })).not.toEqual([]);
  });
});
