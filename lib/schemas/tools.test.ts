// The served tool schemas hold to each vendor's documented strict-mode subset; limits left out reappear
// in the description; the server-side validation is unchanged.
import { describe, expect, it } from "vitest";
import {
  createSupportTicketInput,
  isSimplePattern,
  toolDefinitions,
  toolJsonSchema,
  toolNames,
  vendorSchema,
} from "./tools";

// Allow-lists written out here on purpose (not imported), so that widening the code's list fails this test.
// Anthropic: "Strict tool use" → "JSON Schema limitations" (platform.claude.com/docs/agents-and-tools/tool-use/
//   strict-tool-use): no minLength/maxLength/minimum/maximum/multipleOf; pattern only simple regexes.
// OpenAI: "Structured Outputs" → "Supported schemas" (platform.openai.com/docs/guides/structured-outputs):
//   no minLength/maxLength; pattern/format rejected by fine-tuned models under strict: true, so not served.
const ALLOWED = {
  anthropic: [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "enum",
    "const",
    "items",
    "anyOf",
    "description",
    "format",
    "pattern",
  ],
  openai: ["type", "properties", "required", "additionalProperties", "enum", "const", "items", "anyOf", "description"],
} as const;

type Node = Record<string, unknown>;

/** Every schema node (the root, each property, items, anyOf members) with its JSON path. */
function nodes(schema: Node, path = "$"): [string, Node][] {
  const out: [string, Node][] = [[path, schema]];
  for (const [name, sub] of Object.entries((schema.properties ?? {}) as Record<string, Node>))
    out.push(...nodes(sub, `${path}.${name}`));
  if (schema.items && typeof schema.items === "object") out.push(...nodes(schema.items as Node, `${path}[]`));
  for (const [i, sub] of ((schema.anyOf ?? []) as Node[]).entries()) out.push(...nodes(sub, `${path}|${i}`));
  return out;
}

function served(format: "anthropic" | "openai" | "openai_chat"): { name: string; schema: Node; strict: unknown }[] {
  return toolDefinitions(toolNames, format).map((def) => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the three shapes of the union, read generically
    const d = def as Record<string, any>;
    if (d.input_schema) return { name: d.name, schema: d.input_schema, strict: d.strict };
    if (d.function) return { name: d.function.name, schema: d.function.parameters, strict: d.function.strict };
    return { name: d.name, schema: d.parameters, strict: d.strict };
  });
}

describe("vendor-exact tool schemas", () => {
  for (const format of ["anthropic", "openai", "openai_chat"] as const) {
    const vendor = format === "anthropic" ? "anthropic" : "openai";
    it(`${format}: every keyword of every served schema is on ${vendor}'s strict allow-list`, () => {
      const allowed = new Set<string>(ALLOWED[vendor]);
      const defs = served(format);
      expect(defs.map((d) => d.name)).toEqual(toolNames);
      for (const d of defs) {
        expect(d.strict).toBe(true);
        expect(d.schema.additionalProperties).toBe(false);
        expect([...(d.schema.required as string[])].sort()).toEqual(Object.keys(d.schema.properties as Node).sort());
        for (const [path, node] of nodes(d.schema)) {
          for (const k of Object.keys(node)) expect(allowed.has(k), `${d.name} ${path} uses "${k}"`).toBe(true);
          if (typeof node.pattern === "string")
            expect(isSimplePattern(node.pattern), `${d.name} ${path} pattern`).toBe(true);
        }
      }
    });
  }

  it("the full schema (server, MCP) keeps every limit; the served ones restate the dropped limits in the description", () => {
    const full = toolJsonSchema("create_support_ticket") as { properties: Record<string, Node> };
    expect(full.properties.summary).toMatchObject({ minLength: 10, maxLength: 500 });
    for (const vendor of ["anthropic", "openai"] as const) {
      const s = vendorSchema(full, vendor) as { properties: Record<string, Node> };
      expect(s.properties.summary!.minLength).toBeUndefined();
      expect(s.properties.summary!.pattern).toBeUndefined();
      expect(String(s.properties.summary!.description)).toContain(
        "Limits (the server checks them): 10–500 characters; plain text (no NUL characters).",
      );
      const order = (vendorSchema(toolJsonSchema("lookup_order"), vendor) as { properties: Record<string, Node> })
        .properties.order_id!;
      expect(String(order.description)).toContain("1–40 characters");
      const proposal = (
        vendorSchema(toolJsonSchema("get_refund_status"), vendor) as { properties: Record<string, Node> }
      ).properties.proposal_id!;
      // zod emits a uuid pattern with groups and alternation: never served; Anthropic keeps format: uuid.
      expect(proposal.pattern).toBeUndefined();
      if (vendor === "anthropic") expect(proposal.format).toBe("uuid");
      else expect(String(proposal.description)).toContain("a UUID");
    }
    // Anthropic keeps the simple order-reference pattern; OpenAI gets it as text.
    const a = (vendorSchema(toolJsonSchema("lookup_order"), "anthropic") as { properties: Record<string, Node> })
      .properties.order_id!;
    expect(a.pattern).toBe("^[A-Za-z0-9][A-Za-z0-9_-]*$");
    const o = (vendorSchema(toolJsonSchema("lookup_order"), "openai") as { properties: Record<string, Node> })
      .properties.order_id!;
    expect(String(o.description)).toContain("matching the regular expression ^[A-Za-z0-9][A-Za-z0-9_-]*$");
  });

  it("the server still refuses what the served schemas no longer say (too short, NUL)", () => {
    const ok = { category: "billing", summary: "Charged twice for one order", priority: "normal" };
    expect(createSupportTicketInput.safeParse(ok).success).toBe(true);
    expect(createSupportTicketInput.safeParse({ ...ok, summary: "short" }).success).toBe(false);
    expect(createSupportTicketInput.safeParse({ ...ok, summary: "Charged twice \u0000 for one order" }).success).toBe(
      false,
    );
    expect(createSupportTicketInput.safeParse({ ...ok, summary: "x".repeat(501) }).success).toBe(false);
  });

  it("simple-pattern check: groups, alternation and escapes are not simple", () => {
    expect(isSimplePattern("^[A-Za-z0-9][A-Za-z0-9_-]*$")).toBe(true);
    expect(isSimplePattern("^\\d{3}$")).toBe(true);
    for (const p of ["^(a|b)$", "^[^\\u0000]*$", "^(?=x)", "(a)\\1"]) expect(isSimplePattern(p)).toBe(false);
  });

  it("Chat Completions wraps the function: {type, function:{name, description, parameters, strict}}", () => {
    const [d] = toolDefinitions(["lookup_order"], "openai_chat");
    expect(Object.keys(d!).sort()).toEqual(["function", "type"]);
    expect(d).toMatchObject({
      type: "function",
      function: { name: "lookup_order", strict: true, parameters: { type: "object", additionalProperties: false } },
    });
  });
});
