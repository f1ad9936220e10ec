import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { parseMajorToMinor } from "@/lib/domain/format-money";
import { decidedFilterInput, decidedStatuses } from "@/lib/schemas/proposals";
import { db } from "@/lib/server/db/client";
import type { Prisma } from "@/lib/server/db/generated/client";
import type { Actor } from "@/lib/server/auth/actor";
import { kindSummaryOf } from "./kind-review";

export type DecidedRow = {
  id: string;
  /** The action kind; a refund's row has its amount, another kind's its one-line `summary` (from hashed params). */
  kind: string;
  orderNumber: string;
  customerName: string;
  amountMinor: number | null;
  currency: string | null;
  summary: string | null;
  status: string;
  decidedAt: string | null;
  createdAt: string;
  reviewers: string[];
  rejectedBy: string | null;
  supersededById: string | null;
};
export type DecidedPage = { rows: DecidedRow[]; total: number; page: number; pageSize: number };

/**
 * Finished proposals of the caller's tenant, newest decision first. `q` matches the order number, the
 * customer's name, a reviewer's name (approver or rejecter) or, when it reads as an amount in the
 * tenant's currency ("49.99"), the exact amount. The tenant is part of every where: another tenant's
 * proposals, staff or audit rows are never matched.
 */
export async function listDecidedProposals(actor: Actor, raw: unknown): Promise<DecidedPage> {
  assertCan(actor.roles, "proposal:read");
  const parsed = decidedFilterInput.safeParse(raw);
  if (!parsed.success) throw new AppError("invalid_arguments", parsed.error.issues[0]?.message ?? "Invalid filter.");
  const { q, status, page, pageSize } = parsed.data;
  const tenantId = actor.tenantId;

  const where: Prisma.ProposalWhereInput = {
    tenantId,
    status: status ? status : { in: [...decidedStatuses] },
  };
  if (q) {
    const tenant = await db().tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { currency: true } });
    const staffIds = (
      await db().staffUser.findMany({
        where: { tenantId, name: { contains: q, mode: "insensitive" } },
        select: { id: true },
      })
    ).map((s) => s.id);
    const rejectedByThem = staffIds.length
      ? (
          await db().auditEvent.findMany({
            where: {
              tenantId,
              action: "proposal:reject",
              outcome: "ok",
              actorType: "staff",
              actorId: { in: staffIds },
              proposalId: { not: null },
            },
            select: { proposalId: true },
          })
        ).map((e) => e.proposalId!)
      : [];
    const amount = parseMajorToMinor(q, tenant.currency);
    where.OR = [
      { order: { number: { contains: q, mode: "insensitive" } } },
      { order: { customer: { name: { contains: q, mode: "insensitive" } } } },
      ...(staffIds.length ? [{ approvals: { some: { approverId: { in: staffIds } } } }] : []),
      ...(rejectedByThem.length ? [{ id: { in: rejectedByThem } }] : []),
      ...(amount !== null ? [{ amountMinor: amount }] : []),
    ];
  }

  const [total, rows] = await Promise.all([
    db().proposal.count({ where }),
    db().proposal.findMany({
      where,
      orderBy: [{ decidedAt: { sort: "desc", nulls: "last" } }, { createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: {
        id: true,
        kind: true,
        params: true,
        orderNumber: true,
        amountMinor: true,
        currency: true,
        status: true,
        decidedAt: true,
        createdAt: true,
        order: { select: { number: true, customer: { select: { name: true } } } },
        approvals: { orderBy: { createdAt: "asc" }, select: { approver: { select: { name: true } } } },
        supersededBy: { select: { id: true } },
      },
    }),
  ]);

  // Who rejected: the staff actor of the successful proposal:reject event (same tenant only).
  const rejected = rows.filter((r) => r.status === "rejected").map((r) => r.id);
  const rejectEvents = rejected.length
    ? await db().auditEvent.findMany({
        where: { tenantId, action: "proposal:reject", outcome: "ok", proposalId: { in: rejected } },
        select: { proposalId: true, actorId: true },
      })
    : [];
  const rejecterIds = [...new Set(rejectEvents.map((e) => e.actorId).filter((x): x is string => !!x))];
  const names = new Map(
    (rejecterIds.length
      ? await db().staffUser.findMany({
          where: { tenantId, id: { in: rejecterIds } },
          select: { id: true, name: true },
        })
      : []
    ).map((s) => [s.id, s.name]),
  );
  const rejecterOf = new Map(
    rejectEvents.map((e) => [e.proposalId!, e.actorId ? (names.get(e.actorId) ?? null) : null]),
  );

  return {
    total,
    page,
    pageSize,
    rows: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      orderNumber: r.order?.number ?? r.orderNumber ?? "—",
      customerName: r.order?.customer.name ?? "—",
      amountMinor: r.amountMinor,
      currency: r.currency?.trim() ?? null,
      summary: kindSummaryOf(r.kind, r.params),
      status: r.status,
      decidedAt: r.decidedAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
      reviewers: r.approvals.map((a) => a.approver.name),
      rejectedBy: rejecterOf.get(r.id) ?? null,
      supersededById: r.supersededBy?.id ?? null,
    })),
  };
}
