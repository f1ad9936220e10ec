// The admin-declared action kind (docs/action-kinds.md "Declaring an action"): its tools are not in code but in the
// tenant's active declarations (ActionDeclaration), so it declares no static tool; the registry lists it for its
// behaviour (review, revalidation, executor) and its dynamic tools (./server.ts). Client-safe.
import { declareKindTools } from "../kind";

export const DECLARED_ACTION_KIND = "declared_action";

export const declaredActionKindTools = declareKindTools({ kind: DECLARED_ACTION_KIND, tools: {} });
