import "server-only";
import { randomUUID } from "node:crypto";
import { failure } from "@/lib/domain/agent-protocol";
import { scrubText } from "@/lib/domain/redaction";
import { auditFingerprint } from "@/lib/server/audit/fingerprint";
import type { CreateSupportTicketInput } from "@/lib/schemas/tools";
import { nowUtc, type Sql } from "@/lib/server/db/sql";
import type { HandlerResult, ToolContext } from "@/lib/server/agent/tool-context";

/**
 * create_support_ticket: the customer comes from the verified token (anonymous tickets have none). The
 * summary is scrubbed like audit text before it is stored: credentials become [secret], e-mail addresses,
 * card numbers, IBANs, phone numbers and the customer's own name and e-mail become fingerprints (the
 * ticket already points at the customer).
 */
export async function createSupportTicket(
  tx: Sql,
  input: CreateSupportTicketInput,
  ctx: ToolContext,
): Promise<HandlerResult> {
  let known: string[] = [];
  if (ctx.customerId) {
    const customer = await tx
      .selectFrom("Customer")
      .select(["name", "email"])
      .where("id", "=", ctx.customerId)
      .where("tenantId", "=", ctx.caller.tenantId)
      .executeTakeFirst();
    if (!customer)
      return {
        outcome: failure("permission_denied", "The end user of this conversation is not a customer of this shop."),
      };
    known = [customer.name, customer.email];
  }
  const ticket = await tx
    .insertInto("SupportTicket")
    .values({
      id: randomUUID(),
      tenantId: ctx.caller.tenantId,
      customerId: ctx.customerId,
      agentKeyId: ctx.caller.keyId,
      channelId: ctx.caller.channelId,
      category: input.category,
      priority: input.priority,
      summary: scrubText(input.summary, auditFingerprint, new Set(), known),
      traceId: ctx.traceId,
      createdAt: nowUtc,
    })
    .returning(["id", "status"])
    .executeTakeFirstOrThrow();
  return {
    outcome: {
      code: "ok",
      result: { ticket_id: ticket.id, status: ticket.status, category: input.category, priority: input.priority },
    },
    audit: { ticket: ticket.id },
    knownPersonal: known,
  };
}
