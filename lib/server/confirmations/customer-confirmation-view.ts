import "server-only";
import type { CustomerConfirmationView } from "@/lib/schemas/proposal-dto";
import { db } from "@/lib/server/db/client";

/** What reviewers see of the customer's confirmation: who must confirm, and what the customer decided and when. */
export async function customerConfirmationView(p: {
  id: string;
  confirmation: string;
}): Promise<CustomerConfirmationView> {
  const required = p.confirmation as CustomerConfirmationView["required"];
  if (required === "reviewers") return { required, decision: null, decidedAt: null, browser: null };
  const decided = await db().customerConfirmation.findFirst({
    where: { proposalId: p.id, usedAt: { not: null } },
    orderBy: { usedAt: "desc" },
    select: { decision: true, usedAt: true, userAgent: true },
  });
  return {
    required,
    decision: (decided?.decision as CustomerConfirmationView["decision"]) ?? null,
    decidedAt: decided?.usedAt?.toISOString() ?? null,
    browser: decided?.userAgent ?? null,
  };
}
