import "server-only";
// The tools that exist per tenant (an admin-declared action's, docs/action-kinds.md "Declaring an action"), as the
// gateway sees them: listed beside the catalogue's in every format (GET /api/agent/tools, MCP tools/list) and
// callable over every transport. Knows no kind: the registry lists them.
//
// Allow-lists: a channel's and a key's `allowedTools` name catalogue tools only (Admin offers the catalogue). A
// declared tool is offered to every agent key of its tenant: the declaration itself — proposed by one admin and
// approved by a second — is the decision to offer it, and retiring it withdraws it from every key at once. It only
// prepares a proposal that a person approves, and it needs a verified customer.
import { dynamicToolsOf } from "@/lib/actions/registry.server";
import type { DynamicTool } from "@/lib/actions/kind.server";
import { DECLARED_NAME } from "@/lib/domain/action-declaration";
import { isToolName } from "@/lib/schemas/tools";
import type { AgentCaller } from "./authenticate-agent-key";

export type { DynamicTool } from "@/lib/actions/kind.server";

/** The caller's tenant's dynamic tools; a name a built-in tool has is never one of them. */
export async function dynamicToolsFor(caller: Pick<AgentCaller, "tenantId">): Promise<DynamicTool[]> {
  return (await dynamicToolsOf(caller.tenantId)).filter((t) => !isToolName(t.name));
}

/** The dynamic tool of that name, or null (a built-in name, a name no active declaration has). */
export async function findDynamicTool(
  caller: Pick<AgentCaller, "tenantId">,
  name: string,
): Promise<DynamicTool | null> {
  if (isToolName(name) || !DECLARED_NAME.test(name)) return null;
  return (await dynamicToolsFor(caller)).find((t) => t.name === name) ?? null;
}
