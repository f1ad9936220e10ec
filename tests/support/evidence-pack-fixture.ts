// The proposal the evidence-pack unit tests build their packs around (v2, v3 and the edge cases): one tenant,
// one order, a fixed expiry, and its hash.
import { computeProposalHash, type ProposalHashInput } from "@/lib/domain/proposal-hash";

export const packTenantId = "00000000-0000-4000-8000-000000000001";
export const packProposal: ProposalHashInput = {
  id: "11111111-1111-4111-8111-111111111111",
  tenantId: packTenantId,
  tool: "prepare_refund",
  orderId: "22222222-2222-4222-8222-222222222222",
  amount: { minor: 1234, currency: "EUR" },
  recipient: { kind: "card", ref: "pi_1", holder: "A" },
  reason: "damaged_item",
  expiresAt: new Date("2026-01-01T00:30:00.000Z"),
};
export const packProposalHash = computeProposalHash(packProposal);
