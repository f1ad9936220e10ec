import "server-only";
import { isAppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { parseInput } from "@/lib/domain/validation";
import { bulkRejectProposalsInput } from "@/lib/schemas/proposals";
import type { BulkRejectResult } from "@/lib/schemas/proposal-dto";
import type { Actor } from "@/lib/server/auth/actor";
import { traceDecision } from "@/lib/server/telemetry/decision-span";
import { rejectProposal } from "./reject-proposal";

/**
 * Rejects several pending proposals with one message for the customer. Each proposal goes through the single
 * rejection (rejectProposal): its own transaction, row lock, state and hash check, scrubbing and audit event —
 * so one that changed meanwhile (another decision, expiry, a different hash) is refused and reported while the
 * others are still rejected. One at a time, in the order sent. Approvals have no bulk form: each is a signed
 * decision over one hash.
 */
export async function bulkRejectProposals(actor: Actor, raw: unknown): Promise<BulkRejectResult> {
  assertCan(actor.roles, "proposal:decide");
  const input = parseInput(bulkRejectProposalsInput, raw, "The bulk rejection request is malformed.");
  const results: BulkRejectResult["results"] = [];
  for (const { proposalId, hash } of input.proposals) {
    try {
      await traceDecision("reject", actor, proposalId, () =>
        rejectProposal(actor, {
          proposalId,
          hash,
          customerMessage: input.customerMessage,
          ...(input.internalNote ? { internalNote: input.internalNote } : {}),
        }),
      );
      results.push({ proposalId, outcome: "rejected", code: null, message: null });
    } catch (error) {
      if (!isAppError(error)) throw error;
      results.push({ proposalId, outcome: "refused", code: error.code, message: error.message });
    }
  }
  return { results };
}
