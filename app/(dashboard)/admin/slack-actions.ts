"use server";

import { revalidatePath } from "next/cache";
import { isAppError } from "@/lib/domain/outcome";
import { requirePermission } from "@/lib/server/auth/actor";
import { log } from "@/lib/server/log";
import { setSlackWebhook } from "@/lib/server/notifications/slack-webhook-settings";

export type SlackWebhookProblem =
  | "invalid"
  | "protocol"
  | "https_required"
  | "credentials"
  | "private_address"
  | "too_long"
  | "unauthenticated"
  | "permission_denied"
  | "internal_error";

export type SlackWebhookFormState =
  | { status: "idle" }
  | { status: "saved"; host: string }
  | { status: "cleared" }
  | { status: "error"; problem: SlackWebhookProblem };

const knownProblems = new Set<string>([
  "invalid",
  "protocol",
  "https_required",
  "credentials",
  "private_address",
  "too_long",
]);

// A server action is a public POST endpoint: the use case re-checks permission, tenant and input.
export async function saveSlackWebhook(_prev: SlackWebhookFormState, form: FormData): Promise<SlackWebhookFormState> {
  try {
    const actor = await requirePermission("admin:manage");
    const intent = form.get("intent");
    const result = await setSlackWebhook(actor, intent === "clear" ? { intent } : { intent, url: form.get("url") });
    revalidatePath("/admin");
    return result.host ? { status: "saved", host: result.host } : { status: "cleared" };
  } catch (error) {
    if (isAppError(error)) {
      if (error.code === "unauthenticated" || error.code === "permission_denied")
        return { status: "error", problem: error.code };
      const problem = typeof error.details?.problem === "string" ? error.details.problem : "invalid";
      if (error.code === "invalid_arguments" && knownProblems.has(problem))
        return { status: "error", problem: problem as SlackWebhookProblem };
    }
    log.error(
      { err: error instanceof Error ? { name: error.name, message: error.message } : String(error) },
      "saving the Slack webhook failed",
    );
    return { status: "error", problem: "internal_error" };
  }
}
