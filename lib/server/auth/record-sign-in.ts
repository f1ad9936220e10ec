import "server-only";
import { log } from "@/lib/server/log";
import type { CredentialCheck } from "@/lib/server/auth/verify-credentials";

/** Records a sign-in attempt. Never logs the password; the email only as given for a failure. */
export async function recordSignIn(input: { email: string; method: "password" | "oidc"; result: CredentialCheck }): Promise<void> {
  if (input.result.ok) {
    log.info({ event: "sign_in", method: input.method, userId: input.result.user.id, tenantId: input.result.user.tenantId }, "staff signed in");
  } else {
    log.warn({ event: "sign_in_failed", method: input.method, reason: input.result.reason }, "staff sign-in refused");
  }
}
