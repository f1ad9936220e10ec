"use server";

import { revalidatePath } from "next/cache";
import { requirePermission } from "@/lib/server/auth/actor";
import { setReviewWebhook } from "@/lib/server/admin/set-review-webhook";
import { webhookFormProblem, type FormAccessProblem } from "./webhook-form-problem";

/** What the webhook form shows after a submit. `secret` appears once, in the answer to the save. */
export type ReviewWebhookFormState =
  | { status: "idle" }
  | { status: "saved"; url: string; secret: string }
  | { status: "cleared" }
  | { status: "error"; problem: ReviewWebhookProblem };

const inputProblems = ["invalid", "protocol", "credentials", "private_address", "too_long"] as const;

export type ReviewWebhookProblem = (typeof inputProblems)[number] | FormAccessProblem;

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
    return { status: "error", problem: webhookFormProblem(error, inputProblems, "reviewer webhook") };
  }
}
