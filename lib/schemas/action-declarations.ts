// Admin-declared actions (docs/admin-api.md "Actions"): the admin API's inputs. The declaration itself is defined
// once in lib/domain/action-declaration.ts (the kind, the admin API and the form share it); the body of
// POST /api/admin/actions is the declaration plus an optional `stepUpPassword`.
import { z } from "zod";
import { stepUp } from "./step-up";

export { actionDeclarationSpec, type ActionDeclarationSpec } from "@/lib/domain/action-declaration";

/** The step-up part of a body (the rest is the declaration, strict). */
export const declarationStepUp = z.object({ ...stepUp });

/** POST /api/admin/actions/{id}/approve | retire. */
export const decideDeclarationInput = z.strictObject({ ...stepUp });
