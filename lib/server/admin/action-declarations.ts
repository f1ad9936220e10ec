import "server-only";
// Admin-declared actions (docs/admin-api.md "Actions"; docs/action-kinds.md "Declaring an action"): the tenant's
// declarations, versioned like policy — every POST adds the name's next version as `pending`, never an update — and
// every version needs a second admin (assertIndependentApprover, step-up) before the agent sees it. Approving makes
// it `active` and the previous active version `superseded`; reject/cancel make it `rejected`; retiring an active one
// (a tightening) needs one admin. Tenant-scoped in every query: another tenant's declaration is simply not there.
// Every change is audited in its transaction with the spec (no personal data: an admin's words and field names).
import { randomUUID } from "node:crypto";
import { approverRefusal } from "@/lib/domain/admin-governance";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { invalidArguments } from "@/lib/domain/validation";
import type { ActionDeclarationSpec, DeclarationRow, DeclarationStatus } from "@/lib/domain/action-declaration";
import { actionDeclarationSpec, declarationStepUp, decideDeclarationInput } from "@/lib/schemas/action-declarations";
import { isToolName } from "@/lib/schemas/tools";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { db, type Tx } from "@/lib/server/db/client";
import { sql, sqlOf } from "@/lib/server/db/sql";
import { transaction } from "@/lib/server/db/transaction";
import { recordAdminEvent } from "./admin-audit";
import { assertIndependentApprover, provenanceSelect } from "./admin-change-store";
import { parseForm } from "./zod-problem";

/** The most declared names a tenant may have. */
export const MAX_DECLARED_ACTIONS = 50;

export type { DeclarationRow };

type Stored = {
  id: string;
  name: string;
  version: number;
  status: string;
  spec: unknown;
  proposedById: string;
  decidedById: string | null;
  createdAt: Date;
  decidedAt: Date | null;
};

const CLEAR = ["id", "name", "version", "status", "spec", "declaration"];

/** GET /api/admin/actions: the newest version of each name first, and every pending version. */
export async function listDeclarations(actor: Actor): Promise<{ data: DeclarationRow[] }> {
  assertCan(actor.roles, "admin:manage");
  const rows = await db().actionDeclaration.findMany({
    where: { tenantId: actor.tenantId },
    orderBy: [{ name: "asc" }, { version: "desc" }],
  });
  // Per name: its pending version (if any) and its newest decided one; older versions are history.
  const shown: Stored[] = [];
  const decidedSeen = new Set<string>();
  for (const r of rows) {
    if (r.status === "pending") shown.push(r);
    else if (!decidedSeen.has(r.name)) {
      decidedSeen.add(r.name);
      shown.push(r);
    }
  }
  return { data: await toRows(actor, shown) };
}

async function toRows(actor: Actor, rows: Stored[]): Promise<DeclarationRow[]> {
  const ids = [...new Set(rows.flatMap((r) => [r.proposedById, ...(r.decidedById ? [r.decidedById] : [])]))];
  const staff = await db().staffUser.findMany({
    where: { tenantId: actor.tenantId, id: { in: [...ids, actor.userId] } },
    select: { ...provenanceSelect, name: true, email: true },
  });
  const who = (id: string | null) => {
    const s = staff.find((x) => x.id === id);
    return s ? { name: s.name, email: s.email } : { name: "—", email: "" };
  };
  const viewer = staff.find((s) => s.id === actor.userId);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    version: r.version,
    status: r.status as DeclarationStatus,
    spec: r.spec as ActionDeclarationSpec,
    proposedBy: who(r.proposedById),
    proposedAt: r.createdAt.toISOString(),
    decidedBy: r.decidedById ? who(r.decidedById) : null,
    decidedAt: r.decidedAt?.toISOString() ?? null,
    mine: r.proposedById === actor.userId,
    approvalRefusal:
      r.status !== "pending"
        ? null
        : viewer
          ? approverRefusal(viewer, { proposedById: r.proposedById, proposedAt: r.createdAt })
          : "not_admin",
  }));
}

/** Serialises the versions of one name (two admins proposing at once take turns). */
async function lockName(tx: Tx, tenantId: string, name: string) {
  await sql`SELECT 1 FROM pg_advisory_xact_lock(hashtextextended(${`declared-action:${tenantId}:${name}`}, 0))`.execute(
    sqlOf(tx),
  );
}

/**
 * POST /api/admin/actions: the declaration's next version, pending until a second admin approves it. A built-in tool's
 * name is refused (a declared tool never shadows one); a name with a pending version already is a conflict.
 */
export async function proposeDeclaration(actor: Actor, raw: unknown): Promise<{ declaration: DeclarationRow }> {
  assertCan(actor.roles, "admin:manage");
  const { stepUpPassword, ...rest } = (raw ?? {}) as Record<string, unknown>;
  const spec = parseForm(actionDeclarationSpec, rest);
  const stepUp = parseForm(declarationStepUp, { stepUpPassword });
  if (isToolName(spec.name))
    throw invalidArguments("name: a built-in tool already has this name.", [
      { path: "$.name", expected: "a name no built-in tool has", message: "a built-in tool already has this name" },
    ]);
  await requireStepUp(actor, stepUp.stepUpPassword);
  const row = await transaction(async (tx) => {
    await lockName(tx, actor.tenantId, spec.name);
    const versions = await tx.actionDeclaration.findMany({
      where: { tenantId: actor.tenantId, name: spec.name },
      orderBy: { version: "desc" },
      select: { version: true, status: true },
    });
    if (versions.some((v) => v.status === "pending"))
      throw new AppError("rejected", "This action already has a version waiting for a second admin.", {
        reason: "declaration_pending",
      });
    if (
      versions.length === 0 &&
      (await tx.actionDeclaration.groupBy({ by: ["name"], where: { tenantId: actor.tenantId } })).length >=
        MAX_DECLARED_ACTIONS
    )
      throw new AppError("limit_exceeded", `A shop may declare at most ${MAX_DECLARED_ACTIONS} actions.`, {
        reason: "too_many_declared_actions",
      });
    const created = await tx.actionDeclaration.create({
      data: {
        id: randomUUID(),
        tenantId: actor.tenantId,
        name: spec.name,
        version: (versions[0]?.version ?? 0) + 1,
        status: "pending",
        spec,
        proposedById: actor.userId,
      },
    });
    await recordAdminEvent(tx, actor, {
      action: "declare_action",
      target: { kind: "declared_action", id: created.id, name: created.name, version: created.version },
      after: { spec },
      clear: CLEAR,
    });
    return created;
  });
  const [view] = await toRows(actor, [row]);
  return { declaration: view! };
}

async function lockedPending(tx: Tx, actor: Actor, id: string) {
  const found = await tx.actionDeclaration.findFirst({ where: { id, tenantId: actor.tenantId } });
  if (!found) throw new AppError("not_found", "No such declared action.");
  await lockName(tx, actor.tenantId, found.name);
  const row = await tx.actionDeclaration.findFirst({ where: { id, tenantId: actor.tenantId } });
  return row!;
}

const notPending = (status: string) =>
  new AppError("rejected", `This version is ${status}; there is nothing to decide.`, { reason: status });

/** POST /api/admin/actions/{id}/approve: a second, independent admin (step-up) makes the version active. */
export async function approveDeclaration(actor: Actor, id: string, raw: unknown): Promise<{ status: "active" }> {
  assertCan(actor.roles, "admin:manage");
  const { stepUpPassword } = parseForm(decideDeclarationInput, raw);
  await requireStepUp(actor, stepUpPassword);
  return transaction(async (tx) => {
    const row = await lockedPending(tx, actor, id);
    if (row.status !== "pending") throw notPending(row.status);
    await assertIndependentApprover(tx, actor, { proposedById: row.proposedById, proposedAt: row.createdAt });
    const now = new Date();
    const previous = await tx.actionDeclaration.findFirst({
      where: { tenantId: actor.tenantId, name: row.name, status: "active" },
      select: { id: true, version: true },
    });
    if (previous)
      await tx.actionDeclaration.updateMany({
        where: { id: previous.id, tenantId: actor.tenantId, status: "active" },
        data: { status: "superseded", retiredAt: now },
      });
    const moved = await tx.actionDeclaration.updateMany({
      where: { id, tenantId: actor.tenantId, status: "pending" },
      data: { status: "active", decidedById: actor.userId, decidedAt: now },
    });
    if (moved.count !== 1) throw notPending("decided");
    await recordAdminEvent(tx, actor, {
      action: "approve_declared_action",
      target: { kind: "declared_action", id, name: row.name, version: row.version },
      before: previous ? { version: previous.version, status: "superseded" } : null,
      after: { version: row.version, status: "active" },
      clear: CLEAR,
    });
    return { status: "active" as const };
  });
}

/** POST /api/admin/actions/{id}/reject (another admin) or /cancel (the proposer): the version is `rejected`. */
export async function rejectDeclaration(
  actor: Actor,
  id: string,
  how: "reject" | "cancel",
): Promise<{ status: "rejected" }> {
  assertCan(actor.roles, "admin:manage");
  return transaction(async (tx) => {
    const row = await lockedPending(tx, actor, id);
    if (row.status !== "pending") throw notPending(row.status);
    if (how === "cancel" && row.proposedById !== actor.userId)
      throw new AppError("permission_denied", "Only the admin who proposed this version can cancel it.", {
        reason: "not_proposer",
      });
    const moved = await tx.actionDeclaration.updateMany({
      where: { id, tenantId: actor.tenantId, status: "pending" },
      data: { status: "rejected", decidedById: actor.userId, decidedAt: new Date() },
    });
    if (moved.count !== 1) throw notPending("decided");
    await recordAdminEvent(tx, actor, {
      action: how === "cancel" ? "cancel_declared_action" : "reject_declared_action",
      target: { kind: "declared_action", id, name: row.name, version: row.version },
      after: { version: row.version, status: "rejected" },
      clear: CLEAR,
    });
    return { status: "rejected" as const };
  });
}

/** POST /api/admin/actions/{id}/retire: one admin (step-up) withdraws the active version; its tool disappears. */
export async function retireDeclaration(actor: Actor, id: string, raw: unknown): Promise<{ status: "retired" }> {
  assertCan(actor.roles, "admin:manage");
  const { stepUpPassword } = parseForm(decideDeclarationInput, raw);
  await requireStepUp(actor, stepUpPassword);
  return transaction(async (tx) => {
    const row = await lockedPending(tx, actor, id);
    if (row.status !== "active") throw notPending(row.status);
    const moved = await tx.actionDeclaration.updateMany({
      where: { id, tenantId: actor.tenantId, status: "active" },
      data: { status: "retired", retiredAt: new Date() },
    });
    if (moved.count !== 1) throw notPending("decided");
    await recordAdminEvent(tx, actor, {
      action: "retire_declared_action",
      target: { kind: "declared_action", id, name: row.name, version: row.version },
      after: { version: row.version, status: "retired" },
      clear: CLEAR,
    });
    return { status: "retired" as const };
  });
}
