// The audit search's action picker (app/(dashboard)/audit): the core's codes (lib/domain/audit-actions.ts) and every
// registered kind's — its tools' calls (`tool:<name>`) beside the agent's, the events it declares
// (ActionKindTools.auditEvents) beside the executions'. Built from the registry: a new kind adds nothing here, only
// the plain names in its messages. Client-safe, like the registry.
import { auditActionGroups, type AuditActionGroup } from "@/lib/domain/audit-actions";
import type { ActionKindTools } from "./kind";
import { actionKinds } from "./registry";

/** The picker's groups for a list of kinds (the registered ones below; tests pass their own). */
export function auditPickerGroupsOf(kinds: readonly ActionKindTools[]): Record<AuditActionGroup, readonly string[]> {
  const [lookup, ...agent] = auditActionGroups.agent;
  return {
    ...auditActionGroups,
    // The order lookup first, then what the kinds' agents call, then the gateway's own tools and refusals.
    agent: [lookup, ...kinds.flatMap((k) => Object.keys(k.tools).map((name) => `tool:${name}`)), ...agent],
    execution: [...auditActionGroups.execution, ...kinds.flatMap((k) => k.auditEvents ?? [])],
  };
}

export const auditPickerGroups = auditPickerGroupsOf(actionKinds);

/** Every code the picker offers, core and kinds, once each. */
export const auditPickerActions: readonly string[] = Object.values(auditPickerGroups).flat();
