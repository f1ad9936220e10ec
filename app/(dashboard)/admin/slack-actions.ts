"use server";

import { revalidatePath } from "next/cache";
import { requirePermission } from "@/lib/server/auth/actor";
import { setSlackWebhook } from "@/lib/server/notifications/slack-webhook-settings";
import { webhookFormProblem, type FormAccessProblem } from "./webhook-form-problem";

const inputProblems = ["invalid", "protocol", "https_required", "credentials", "private_address", "too_long"] as const;

export type SlackWebhookProblem = (typeof inputProblems)[number] | FormAccessProblem;

export type SlackWebhookFormState =
  | { status: "idle" }
  | { status: "saved"; host: string }
  | { status: "cleared" }
  | { status: "error"; problem: SlackWebhookProblem };

// A server action is a public POST endpoint: the use case re-checks permission, tenant and input.
export async function saveSlackWebhook(_prev: SlackWebhookFormState, form: FormData): Promise<SlackWebhookFormState> {
  try {
    const actor = await requirePermission("admin:manage");
    const intent = form.get("intent");
    const result = await setSlackWebhook(actor, intent === "clear" ? { intent } : { intent, url: form.get("url") });
    revalidatePath("/admin");
    return result.host ? { status: "saved", host: result.host } : { status: "cleared" };
  } catch (error) {
    return { status: "error", problem: webhookFormProblem(error, inputProblems, "Slack webhook") };
  }
}
