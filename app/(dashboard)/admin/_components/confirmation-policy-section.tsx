import { getTranslations } from "next-intl/server";
import type { Actor } from "@/lib/server/auth/actor";
import { getConfirmationPolicy } from "@/lib/server/admin/confirmation-policy";
import { ConfirmationPolicyForm } from "./confirmation-policy-form";

/**
 * Admin page section (with the policy): who confirms each kind's proposals (docs/action-kinds.md "Who confirms"). A
 * kind's own floor is shown and cannot be lowered here; the tenant may ask the customer to confirm too.
 */
export async function ConfirmationPolicySection({ actor }: { actor: Actor }) {
  const [view, t] = await Promise.all([getConfirmationPolicy(actor), getTranslations()]);
  const title = (kind: string) =>
    t.has(`kinds.${kind}.title`)
      ? t(`kinds.${kind}.title`)
      : t.has(`adminConfirmation.kindNames.${kind}`)
        ? t(`adminConfirmation.kindNames.${kind}`)
        : kind;
  return (
    <ConfirmationPolicyForm
      kinds={view.kinds}
      available={view.available.map((k) => ({ ...k, title: title(k.kind) }))}
    />
  );
}
