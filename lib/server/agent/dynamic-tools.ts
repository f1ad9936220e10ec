import "server-only";
// The tools that exist per tenant (an admin-declared action's, docs/action-kinds.md "Declaring an action"), as the
// gateway sees them: listed beside the catalogue's in every format (GET /api/agent/tools, MCP tools/list) and
// callable over every transport. Knows no kind: the registry lists them.
//
// Allow-lists: a channel's and a key's `allowedTools` name catalogue tools (Admin offers the catalogue). A declared
// tool is offered to a key whose effective tools (key ∩ channel) include at least one action kind's tool — a channel
// its admin trusts to prepare actions for approval; a channel limited to look-ups or tickets (community_chat) never
// sees one. Within such a channel every active declaration is offered: the declaration itself, proposed by one admin
// and approved by a second, is the decision to offer it, and retiring it withdraws it everywhere at once. It only
// prepares a proposal a person approves, and it needs a verified customer.
import { dynamicToolsOf } from "@/lib/actions/registry.server";
import type { DynamicTool } from "@/lib/actions/kind.server";
import { DECLARED_NAME } from "@/lib/domain/action-declaration";
import { kindTools } from "@/lib/actions/registry";
import { isToolName } from "@/lib/schemas/tools";
import type { AgentCaller } from "./authenticate-agent-key";

export type { DynamicTool } from "@/lib/actions/kind.server";

type Caller = Pick<AgentCaller, "tenantId" | "tools">;

/** Whether the key's channel prepares actions at all (see the allow-list rule above). */
export const preparesActions = (caller: Pick<AgentCaller, "tools">) =>
  caller.tools.some((t) => Object.hasOwn(kindTools, t));

/** The dynamic tools offered to the caller; a name a built-in tool has is never one of them. */
export async function dynamicToolsFor(caller: Caller): Promise<DynamicTool[]> {
  if (!preparesActions(caller)) return [];
  return (await dynamicToolsOf(caller.tenantId)).filter((t) => !isToolName(t.name));
}

/** The dynamic tool of that name, or null (a built-in name, a name no active declaration has). */
export async function findDynamicTool(caller: Caller, name: string): Promise<DynamicTool | null> {
  if (isToolName(name) || !DECLARED_NAME.test(name)) return null;
  return (await dynamicToolsFor(caller)).find((t) => t.name === name) ?? null;
}
