import "server-only";
import { isAppError } from "@/lib/domain/outcome";
import { log } from "@/lib/server/log";

/** What a webhook form can show besides its own input problems. */
export type FormAccessProblem = "unauthenticated" | "permission_denied" | "internal_error";

/**
 * The problem a webhook form (reviewer webhook, Slack) shows after a failed save: the sign-in or permission
 * refusal as it is; an `invalid_arguments` refusal by its `details.problem` (`invalid` when it names none) when the form has
 * words for it;
 * anything else as `internal_error`, logged here by name and message (never shown to the browser).
 */
export function webhookFormProblem<P extends string>(
  error: unknown,
  known: readonly P[],
  what: string,
): P | FormAccessProblem {
  if (isAppError(error)) {
    if (error.code === "unauthenticated" || error.code === "permission_denied") return error.code;
    // A refusal of the input that names no problem is plain "invalid".
    const problem = typeof error.details?.problem === "string" ? error.details.problem : "invalid";
    if (error.code === "invalid_arguments" && known.includes(problem as P)) return problem as P;
  }
  log.error(
    { err: error instanceof Error ? { name: error.name, message: error.message } : String(error) },
    `saving the ${what} failed`,
  );
  return "internal_error";
}
