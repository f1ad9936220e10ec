// The registry: every action kind, listed once (docs/action-kinds.md). A new kind adds its folder under
// lib/actions/, one line here and one in registry.server.ts, and its messages — nothing in the core. The tool
// catalogue (lib/schemas/tools.ts), and from it the HTTP and MCP tool lists, OpenAPI and the per-channel tool
// allow-lists, are built from this list. Client-safe: declarations only; how the tools run is registry.server.ts.
import { mergeKindTools, type ActionKindTools } from "./kind";
import { addressChangeKindTools } from "./address-change/tools";
import { bulkMessageKindTools } from "./bulk-message/tools";
import { cancelOrderKindTools } from "./cancel-order/tools";
import { contactChangeKindTools } from "./contact-change/tools";
import { declaredActionKindTools } from "./declared-action/tools";
import { refundKindTools } from "./refund/tools";
import { replacementOrderKindTools } from "./replacement-order/tools";

export const actionKinds = [
  refundKindTools,
  addressChangeKindTools,
  cancelOrderKindTools,
  contactChangeKindTools,
  replacementOrderKindTools,
  bulkMessageKindTools,
  declaredActionKindTools,
] as const;

/** Every kind's agent tools, by tool name (a name two kinds declare is refused at load). */
export const kindTools = mergeKindTools(actionKinds);

/** The registered kinds' names. */
export const actionKindNames = actionKinds.map((k) => k.kind);

/** The tools of those kinds that are still in preview (ActionKindTools.preview). */
export function previewToolsOf(kinds: readonly ActionKindTools[]): ReadonlySet<string> {
  return new Set(kinds.flatMap((k): string[] => (k.preview ? Object.keys(k.tools) : [])));
}

/** Tools of kinds still in preview: Admin does not offer them to channels or keys (none today). */
export const previewToolNames: ReadonlySet<string> = previewToolsOf(actionKinds);
