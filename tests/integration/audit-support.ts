// Helpers for the audit integration tests: actors built from the demo staff rows, a prepared (and
// approved) proposal made through the real gateway and use cases.
import { expect } from "vitest";
import { db } from "@/lib/server/db/client";
import { withPgClient } from "@/lib/server/db/pg-client";
import type { Actor } from "@/lib/server/auth/actor";
import type { Role } from "@/lib/domain/permissions";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { demoTenants } from "../../scripts/lib/demo-data";
import { ES, anthropicCall, freshTrace, headersFor, send, tokenFor, webKey } from "./gateway-support";
import { createPaidOrder } from "../../scripts/lib/fixtures";
import { actorFor, staffOf } from "../support/actors";

export async function actorOf(tenant: string, role: Role, n = 0): Promise<Actor> {
  return actorFor(staffOf(tenant, role, n).email);
}

export const customerEmail = (tenant: string, key: string) =>
  demoTenants.find((t) => t.slug === tenant)!.customers.find((c) => c.key === key)!.email;

/** A fresh paid card order of the customer and a proposal for it, prepared by the agent under `trace`. */
export async function preparedProposal(customer: string, amountMinor = 4_321, trace = freshTrace(), tenant = ES) {
  const t = await db().tenant.findUniqueOrThrow({ where: { slug: tenant } });
  const { number } = await createPaidOrder(db(), t, {
    customerId: customer,
    amountMinor,
    prefix: "AUD",
    holderName: "Ana García",
  });
  const token = await tokenFor(tenant, customer);
  await send(anthropicCall("lookup_order", { order_id: number }), headersFor({ key: webKey(tenant), token, trace }));
  const a = await send(
    anthropicCall("prepare_refund", { order_id: number, reason: "damaged_item" }),
    headersFor({ key: webKey(tenant), token, trace }),
  );
  expect(a.content.code).toBe("approval_required");
  const id = (a.content.result as { proposal_id: string }).proposal_id;
  return { proposal: await db().proposal.findUniqueOrThrow({ where: { id } }), trace };
}

export async function approvedProposal(customer: string, amountMinor = 4_321) {
  const { proposal, trace } = await preparedProposal(customer, amountMinor);
  await approveProposal(await actorOf(ES, "reviewer"), { proposalId: proposal.id, hash: proposal.hash });
  return { proposal, trace };
}

const TABLES = ["AuditEvent", "AuditLeaf", "AuditTreeNode", "AuditSignedCheckpoint"];

/** Runs statements as someone who bypasses the append-only triggers (a database owner). */
export async function asAuditOwner<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  return withPgClient(process.env.DATABASE_URL!, async (c) => {
    try {
      await c.query("BEGIN");
      for (const t of TABLES) await c.query(`ALTER TABLE "${t}" DISABLE TRIGGER USER`);
      const r = await c.query(text, params);
      for (const t of TABLES) await c.query(`ALTER TABLE "${t}" ENABLE TRIGGER USER`);
      await c.query("COMMIT");
      return r.rows as T[];
    } catch (e) {
      await c.query("ROLLBACK");
      throw e;
    }
  });
}

/**
 * The tail-truncation attack, as a database owner: removes every leaf from `keep` on with its event, the
 * perfect-subtree nodes that cover it and the checkpoints larger than `keep`. What remains is a smaller,
 * self-consistent log (every remaining checkpoint still matches its leaves).
 */
export async function truncateLogTail(logId: string, keep: number): Promise<void> {
  await asAuditOwner(
    `WITH gone AS (DELETE FROM "AuditLeaf" WHERE "logId" = $1 AND "leafIndex" >= $2 RETURNING "eventId")
     DELETE FROM "AuditEvent" WHERE "id" IN (SELECT "eventId" FROM gone)`,
    [logId, keep],
  );
  await asAuditOwner(`DELETE FROM "AuditTreeNode" WHERE "logId" = $1 AND ("index" + 1) * (1 << "level") > $2`, [
    logId,
    keep,
  ]);
  await asAuditOwner(`DELETE FROM "AuditSignedCheckpoint" WHERE "logId" = $1 AND "treeSize" > $2`, [logId, keep]);
}
