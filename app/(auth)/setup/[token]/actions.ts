"use server";

import { isAppError } from "@/lib/domain/outcome";
import { completeSetup } from "@/lib/server/admin/complete-setup";
import { log } from "@/lib/server/log";

export type SetupState =
  | { status: "idle" }
  | { status: "done" }
  | { status: "error"; problem: "invalid_link" | "weak_password" | "mismatch" | "internal_error" };

// A server action is a public POST endpoint: the token is the only credential; completeSetup checks it.
export async function completeSetupAction(_prev: SetupState, form: FormData): Promise<SetupState> {
  const password = form.get("password");
  if (password !== form.get("confirm")) return { status: "error", problem: "mismatch" };
  try {
    await completeSetup({ token: form.get("token"), password });
    return { status: "done" };
  } catch (error) {
    if (isAppError(error))
      return { status: "error", problem: error.code === "invalid_arguments" ? "weak_password" : "invalid_link" };
    log.error({ err: error instanceof Error ? error.message : String(error) }, "account setup failed");
    return { status: "error", problem: "internal_error" };
  }
}
