// Chain status for auditors, against the real database: auditors see their own tenant's signed log and can
// verify it now; another tenant's broken chain is never revealed to them (not its name, leaf or problem, nor
// that a break exists); admins keep the stored check of every chain.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { integratePending } from "@/lib/server/audit/sequencer";
import { verifyAllAuditChains } from "@/lib/server/audit/verify-all-chains";
import { getChainStatus, verifyOwnAuditLog } from "@/lib/server/audit/get-chain-status";
import { ES, US, ana, anthropicCall, freshTrace, headersFor, john, send, tokenFor, webKey } from "./gateway-support";
import { actorOf, asAuditOwner } from "./audit-support";

/** Rewrites one event as a database owner would (append-only triggers off). */
const rewriteOutcome = (eventId: string, outcome: string) =>
  asAuditOwner(`UPDATE "AuditEvent" SET outcome = $2 WHERE id = $1`, [eventId, outcome]);

let usTenant: string;

beforeAll(async () => {
  usTenant = (await db().tenant.findUniqueOrThrow({ where: { slug: US } })).id;
  await send(
    anthropicCall("lookup_order", { order_id: "ORD-1001" }),
    headersFor({ token: await tokenFor(ES, ana), trace: freshTrace() }),
  );
  await send(
    anthropicCall("lookup_order", { order_id: "ORD-2001" }),
    headersFor({ key: webKey(US), token: await tokenFor(US, john), trace: freshTrace() }),
  );
  await integratePending();
});

describe("chain status for auditors", () => {
  it("an auditor sees their tenant's signed log, retention and purge; not the every-chain check, nor refused keys; may not verify every chain", async () => {
    const auditor = await actorOf(ES, "auditor");
    await verifyAllAuditChains("test");
    const status = await getChainStatus(auditor);
    expect(status.ownLog?.treeSize).toBe(await db().auditLeaf.count({ where: { logId: auditor.tenantId } }));
    expect(status).toMatchObject({
      check: null,
      refusedKeys: null,
      mayVerify: false,
      retentionDays: expect.any(Number),
    });
    const admin = await getChainStatus(await actorOf(ES, "admin"));
    expect(admin).toMatchObject({ check: { ok: true }, mayVerify: true, refusedKeys: { ownKeys: expect.any(Number) } });
    for (const role of ["ops", "reviewer"] as const) {
      await expect(getChainStatus(await actorOf(ES, role))).rejects.toMatchObject({ code: "permission_denied" });
      await expect(verifyOwnAuditLog(await actorOf(ES, role))).rejects.toMatchObject({ code: "permission_denied" });
    }
  });

  it("another tenant's broken chain is never revealed to an auditor; their own log still verifies; that tenant's auditor sees the break", async () => {
    const leaf = await db().auditLeaf.findFirstOrThrow({ where: { logId: usTenant }, orderBy: { leafIndex: "asc" } });
    const original = await db().auditEvent.findFirstOrThrow({ where: { id: leaf.eventId } });
    await rewriteOutcome(leaf.eventId, "permission_denied");
    try {
      const all = await verifyAllAuditChains("test");
      expect(all).toMatchObject({ ok: false, broken: { tenantSlug: US } });

      const esAuditor = await actorOf(ES, "auditor");
      const seen = await getChainStatus(esAuditor);
      expect(seen.check).toBeNull();
      const text = JSON.stringify(seen);
      for (const secret of [US, usTenant, "does not match", "permission_denied"]) expect(text).not.toContain(secret);
      const own = await verifyOwnAuditLog(esAuditor);
      expect(own).toMatchObject({ ok: true });
      expect(JSON.stringify(own)).not.toContain(US);

      // The shop-us auditor verifies their own log and is told where it broke.
      const usOwn = await verifyOwnAuditLog(await actorOf(US, "auditor"));
      expect(usOwn).toMatchObject({ ok: false, seq: leaf.leafIndex, problem: "content does not match its leaf hash" });

      // tienda-es's admin learns only that a break exists elsewhere (the every-chain check), nothing of it.
      const esAdmin = await getChainStatus(await actorOf(ES, "admin"));
      expect(esAdmin.check).toMatchObject({ ok: false, ownBreak: null });
    } finally {
      await rewriteOutcome(leaf.eventId, original.outcome);
    }
    expect(await verifyOwnAuditLog(await actorOf(US, "auditor"))).toMatchObject({ ok: true });
  });
});
