import "server-only";
// The server half of the seam (./kind.ts holds the declarations): how a kind's tools run on the gateway. A kind
// gives one handler per tool it declares; the gateway (lib/server/agent/tool-handlers.ts) runs them in its one
// transaction, with the same authentication, budgets, audit and answer envelope for every kind.
import type { ActionKindTools } from "./kind";
import type { ToolHandler } from "@/lib/server/agent/tool-context";

/** One handler for each tool the kind declares, and no other. */
export type KindToolHandlers<K extends ActionKindTools> = { [Name in keyof K["tools"]]: ToolHandler };
