import "server-only";
// What the core asks of the contact-change kind about one of its proposals (../kind.server.ts, KindBehaviour).
// revalidate: the customer's value on record now against the one the change was derived from (compared by keyed
// fingerprint: the source never holds the value) — changed elsewhere → `email_changed` / `phone_changed`, invalidated.
// executor: the shop's action endpoint, subject = the customer as the shop knows them (its id), params = {field,
// after}; when the shop says it is done, our Customer row takes the new value (in the transaction recording it).
import { auditFingerprintsForSearch } from "@/lib/server/audit/fingerprint";
import { actionEndpointExecutor, type ExecutedProposal } from "@/lib/server/executions/action-endpoint-executor";
import type { Tx } from "@/lib/server/db/client";
import type { KindBehaviour, KindReview } from "../kind.server";
import { agentAction, contactOnRecord, type ContactChangeParams, type ContactChangeSource } from "./prepare";

const paramsOf = (p: { params: unknown }) => p.params as ContactChangeParams;

async function revalidate(...[tx, p]: Parameters<KindBehaviour["revalidate"]>): Promise<string | null> {
  return contactProblem(tx, p.tenantId, p.customerId, p.source as ContactChangeSource | null);
}

/** Why the customer's value on record no longer is the one the change was derived from, or null. */
async function contactProblem(
  tx: Tx,
  tenantId: string,
  customerId: string | null,
  source: ContactChangeSource | null,
): Promise<string | null> {
  if (!customerId || !source) return "customer_not_found";
  const customer = await tx.customer.findUnique({
    where: { tenantId_id: { tenantId, id: customerId } },
    select: { email: true, phone: true },
  });
  if (!customer) return "customer_not_found";
  const changed = source.field === "email" ? "email_changed" : "phone_changed";
  const now = contactOnRecord(customer, source.field);
  if (now === null) return source.before === null ? null : changed;
  // Every fingerprint the value may have (a rotation of AUDIT_HMAC_KEY overlapping the proposal's life).
  return source.before !== null && auditFingerprintsForSearch(now.toLowerCase()).includes(source.before)
    ? null
    : changed;
}

/** Customer, and the field going from the masked value on record to the new one — from the hashed params only. */
function review(raw: unknown): KindReview {
  const params = raw as ContactChangeParams;
  return {
    fields: [
      { key: "customer", before: null, after: params.customer.name, changed: false },
      { key: params.field, before: params.beforeMasked, after: params.after, changed: true },
    ],
    sentence: { customer: params.customer.name, field: params.field, value: params.after },
    summary: `${params.customer.name}: ${params.after}`,
  };
}

export const contactChangeBehaviour: KindBehaviour = {
  // Personal data: always a reviewer (tenant policy may ask the customer too).
  confirmation: { floor: "reviewers" },
  revalidate,
  review,
  agentAction: (p) => agentAction(paramsOf(p)),
  executor: actionEndpointExecutor({
    revalidate,
    request: (p: ExecutedProposal) => {
      const params = paramsOf(p);
      return {
        subject: { type: "customer", ref: params.customer.id },
        params: { field: params.field, after: params.after },
      };
    },
    settle: async (tx, p) => {
      const params = paramsOf(p);
      await tx.customer.update({
        where: { tenantId_id: { tenantId: p.tenantId, id: params.customer.id } },
        data: params.field === "email" ? { email: params.after } : { phone: params.after },
      });
    },
  }),
};
