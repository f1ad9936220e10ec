"use server";

import { revalidatePath } from "next/cache";
import { isAppError } from "@/lib/domain/outcome";
import { requirePermission } from "@/lib/server/auth/actor";
import { setReviewWebhook } from "@/lib/server/admin/set-review-webhook";
import { log } from "@/lib/server/log";

/** What the webhook form shows after a submit. `secret` appears once, in the answer to the save. */
export type ReviewWebhookFormState =
  | { status: "idle" }
  | { status: "saved"; url: string; secret: string }
  | { status: "cleared" }
  | { status: "error"; problem: ReviewWebhookProblem };

export type ReviewWebhookProblem =
  | "invalid"
  | "protocol"
  | "credentials"
  | "private_address"
  | "too_long"
  | "unauthenticated"
  | "permission_denied"
  | "internal_error";

const knownProblems = new Set<string>(["invalid", "protocol", "credentials", "private_address", "too_long"]);

// A server action is a public POST endpoint: the use case re-checks permission, tenant and input.
export async function saveReviewWebhook(
  _prev: ReviewWebhookFormState,
  form: FormData,
): Promise<ReviewWebhookFormState> {
  try {
    const actor = await requirePermission("admin:manage");
    const intent = form.get("intent");
    const input = intent === "clear" ? { intent } : { intent, url: form.get("url") };
    const result = await setReviewWebhook(actor, input);
    revalidatePath("/admin");
    return result.url && result.secret
      ? { status: "saved", url: result.url, secret: result.secret }
      : { status: "cleared" };
  } catch (error) {
    if (isAppError(error)) {
      if (error.code === "unauthenticated" || error.code === "permission_denied")
        return { status: "error", problem: error.code };
      const problem = typeof error.details?.problem === "string" ? error.details.problem : "invalid";
      if (error.code === "invalid_arguments" && knownProblems.has(problem))
        return { status: "error", problem: problem as ReviewWebhookProblem };
    }
    log.error(
      { err: error instanceof Error ? { name: error.name, message: error.message } : String(error) },
      "saving the reviewer webhook failed",
    );
    return { status: "error", problem: "internal_error" };
  }
}
