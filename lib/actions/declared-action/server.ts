import "server-only";
// The declared_action kind's tools on the gateway: none static; one per active declaration of the tenant, listed
// when asked (GET /api/agent/tools, MCP tools/list, a call) so a retired or superseded declaration's tool is gone at
// once. Each is validated by the declaration's own strict schema and needs a verified customer. The audit keeps in
// clear the arguments that cannot hold free text (enums, integers, booleans); a pattern string goes through the
// audit writer's redaction.
import { declaredInputJsonSchema, declaredInputValidator, type DeclaredInput } from "@/lib/domain/action-declaration";
import type { DynamicTool, KindDynamicTools, KindToolHandlers } from "../kind.server";
import { activeDeclarations, type ActiveDeclaration } from "./declarations";
import { deriveDeclaredAction, prepareDeclaredAction } from "./prepare";
import type { declaredActionKindTools } from "./tools";

export const declaredActionToolHandlers = {} satisfies KindToolHandlers<typeof declaredActionKindTools>;

export function declaredTool(d: ActiveDeclaration): DynamicTool {
  const validator = declaredInputValidator(d.spec);
  const run = prepareDeclaredAction(d);
  const derive = deriveDeclaredAction(d);
  return {
    name: d.name,
    title: d.name.replace(/_/g, " "),
    description: d.spec.description,
    // Prepares only (a proposal; nothing happens at the shop until a person approves).
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    inputSchema: declaredInputJsonSchema(d.spec),
    parse: (args) => validator.safeParse(args),
    handler: {
      // The derive on the shop before the transaction (it may take seconds); the proposal in it.
      outside: (input: DeclaredInput, ctx) => derive(input, ctx),
      run: (tx, input: DeclaredInput, ctx) => run(tx, input, ctx),
      needsCustomer: true,
      auditClear: d.spec.input.filter((f) => f.type !== "string" || f.enum).map((f) => f.name),
    },
  };
}

export const declaredActionDynamicTools: KindDynamicTools = {
  list: async (tenantId) => (await activeDeclarations(tenantId)).map((d) => declaredTool(d)),
};
