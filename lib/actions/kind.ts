// The seam between the core and the action kinds (docs/action-kinds.md). The core — the gateway, proposals,
// approvals, executions, audit, evidence — is written once and knows no kind; a kind is one folder under
// lib/actions/<kind>/ that imports the core (this file, lib/schemas, lib/server) and never another kind, and
// is listed once in lib/actions/registry.ts (its tools) and lib/actions/registry.server.ts (how they run).
//
// This file holds what a kind declares and nothing of any kind: no tool name, no field, no sentence.
import type { ToolDeclaration } from "@/lib/schemas/agent-inputs";

/** A kind's name as stored and hashed (`Proposal.kind` to come): lower snake case, stable forever. */
export type ActionKindName = string;

/**
 * What a kind declares for the agent side: its name and its tools (the prepare tool that makes a proposal and the
 * status tool that reads it), each with a boring name, a description that says *when* to call it, and a strict
 * input of what the model can know — identifiers and enums, never a value the server derives.
 */
export type ActionKindTools<Tools extends Record<string, ToolDeclaration> = Record<string, ToolDeclaration>> = {
  kind: ActionKindName;
  tools: Tools;
  /**
   * Set while the kind's proposals cannot yet be reviewed in the dashboard (what is still missing, in a sentence):
   * its tools run on the gateway, but Admin does not offer them to channels or keys, so no agent reaches a proposal
   * that no reviewer could open.
   */
  preview?: string;
  /**
   * Audit action codes the kind writes beyond its tools' calls (which the audit picker lists as `tool:<name>`), e.g.
   * the event its settle adds to the trace. Listed in the audit search's picker (lib/actions/audit-picker.ts) and
   * named in the kind's messages (`audit.actions.<code with ":" as "_">`).
   */
  auditEvents?: readonly `${string}:${string}`[];
};

/** Declares a kind's tools, keeping the tool names as literal types (the catalogue's ToolName is built from them). */
export function declareKindTools<const Tools extends Record<string, ToolDeclaration>>(
  declaration: ActionKindTools<Tools>,
): ActionKindTools<Tools> {
  if (!/^[a-z][a-z0-9_]*$/.test(declaration.kind)) throw new Error(`action kind name "${declaration.kind}"`);
  for (const name of Object.keys(declaration.tools))
    if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`tool name "${name}" of kind ${declaration.kind}`);
  return declaration;
}

/** Puts the kinds' tools into one record, refusing a tool name that two kinds declare. */
export function mergeKindTools<const Kinds extends readonly ActionKindTools[]>(
  kinds: Kinds,
): UnionToIntersection<Kinds[number]["tools"]> {
  const all: Record<string, ToolDeclaration> = {};
  const seenKinds = new Set<string>();
  for (const k of kinds) {
    if (seenKinds.has(k.kind)) throw new Error(`action kind ${k.kind} is registered twice`);
    seenKinds.add(k.kind);
    for (const [name, tool] of Object.entries(k.tools)) {
      if (Object.hasOwn(all, name)) throw new Error(`tool ${name} is declared by two action kinds`);
      all[name] = tool;
    }
  }
  return all as UnionToIntersection<Kinds[number]["tools"]>;
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
