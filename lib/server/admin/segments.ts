import "server-only";
// Segments (docs/admin-api.md "Segments"; send_bulk_message, docs/action-kinds.md): the tenant's named filters over
// its orders, declared by admins. Versioned like policy: a POST of a slug that exists adds its next version (a new
// row; the old one stays, so a proposal that hashed it still names exactly what it used), never an update. Listing
// answers each slug's newest version. Tenant-scoped in every query: another tenant's segment is simply not there.
// Writing one is an admin change: step-up first, audited with the filter (no personal data). Also the tenant's
// bulk-message policy (BulkMessagePolicy: thresholds, cap, tolerance, send window), read and set by admins.
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { createSegmentInput, type SegmentFilter, type SegmentView } from "@/lib/schemas/segments";
import { setBulkPolicyInput, type BulkPolicyView } from "@/lib/schemas/bulk-message-policy";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { db, type Tx } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql, sqlOf, type Sql } from "@/lib/server/db/sql";
import { transaction } from "@/lib/server/db/transaction";
import { BULK_POLICY_CONTROLS, bulkPolicyLoosens, type BulkPolicyControls } from "@/lib/domain/admin-governance";
import { recordAdminEvent } from "./admin-audit";
import { lockTenantStaff, queueAdminChange, type QueuedAdminChange } from "./admin-change-store";
import { parseForm } from "./zod-problem";

/** The most segments (slugs) a tenant may declare. */
export const MAX_SEGMENTS = 200;

type Row = { id: string; slug: string; version: number; name: string; filter: unknown; createdAt: Date };

const view = (r: Row): SegmentView => ({
  id: r.id,
  slug: r.slug,
  version: r.version,
  name: r.name,
  filter: r.filter as SegmentFilter,
  createdAt: r.createdAt.toISOString(),
});

/** GET /api/admin/segments: each of the tenant's segments at its newest version, by slug. */
export async function listSegments(actor: Actor): Promise<{ data: SegmentView[] }> {
  assertCan(actor.roles, "admin:manage");
  const rows = await db().segment.findMany({
    where: { tenantId: actor.tenantId },
    orderBy: [{ slug: "asc" }, { version: "desc" }],
    distinct: ["slug"],
    take: MAX_SEGMENTS,
  });
  return { data: rows.map(view) };
}

/**
 * POST /api/admin/segments {slug, name, filter, stepUpPassword?}: a new segment (version 1) or the next version of
 * the slug. The same name and filter as the newest version is refused (`segment_unchanged`): nothing to version.
 */
export async function createSegmentVersion(actor: Actor, raw: unknown): Promise<SegmentView> {
  assertCan(actor.roles, "admin:manage");
  const input = parseForm(createSegmentInput, raw);
  await requireStepUp(actor, input.stepUpPassword);
  return transaction(async (tx) => {
    // Two admins versioning one slug at once take turns (the unique (tenant, slug, version) would refuse the second).
    await sql`SELECT 1 FROM pg_advisory_xact_lock(hashtextextended(${`segment:${actor.tenantId}:${input.slug}`}, 0))`.execute(
      sqlOf(tx),
    );
    const newest = await tx.segment.findFirst({
      where: { tenantId: actor.tenantId, slug: input.slug },
      orderBy: { version: "desc" },
    });
    if (
      !newest &&
      (await tx.segment.groupBy({ by: ["slug"], where: { tenantId: actor.tenantId } })).length >= MAX_SEGMENTS
    )
      throw new AppError("limit_exceeded", `A shop may declare at most ${MAX_SEGMENTS} segments.`, {
        reason: "too_many_segments",
      });
    if (newest && newest.name === input.name && JSON.stringify(newest.filter) === JSON.stringify(input.filter))
      throw new AppError("invalid_arguments", "This is the segment's current definition; nothing changed.", {
        reason: "segment_unchanged",
        field: "filter",
      });
    const row = await tx.segment.create({
      data: {
        id: randomUUID(),
        tenantId: actor.tenantId,
        slug: input.slug,
        version: (newest?.version ?? 0) + 1,
        name: input.name,
        filter: input.filter,
        createdById: actor.userId,
      },
    });
    await recordAdminEvent(tx, actor, {
      action: "segment_version",
      target: { kind: "segment", slug: row.slug },
      before: newest ? { version: newest.version, name: newest.name, filter: newest.filter } : null,
      after: { version: row.version, name: row.name, filter: row.filter },
      clear: ["slug", "version", "name", "filter", "statuses", "skus", "placedFrom", "placedTo", "countries"],
    });
    return view(row);
  });
}

/** The tenant's bulk-message policy (BulkMessagePolicy; the defaults when it has no row; the window's zone is the
 * tenant's unless the policy names its own). Admins set it with PUT /api/admin/segments/policy. */
export type BulkPolicy = BulkPolicyControls;

export const BULK_POLICY_DEFAULTS = {
  recipientsThreshold: 100,
  dailyRecipientsCap: 5_000,
  tolerancePercent: 0,
  windowStartHour: 9,
  windowEndHour: 20,
} as const;

export async function bulkPolicyOf(tx: Sql, tenantId: string): Promise<BulkPolicy> {
  const { rows } = await sql<BulkPolicy>`
    SELECT COALESCE(b."recipientsThreshold", ${BULK_POLICY_DEFAULTS.recipientsThreshold}::int) AS "recipientsThreshold",
           CASE WHEN b."tenantId" IS NULL THEN ${BULK_POLICY_DEFAULTS.dailyRecipientsCap}::int ELSE b."dailyRecipientsCap" END AS "dailyRecipientsCap",
           COALESCE(b."tolerancePercent", ${BULK_POLICY_DEFAULTS.tolerancePercent}::int) AS "tolerancePercent",
           COALESCE(b."windowStartHour", ${BULK_POLICY_DEFAULTS.windowStartHour}::int) AS "windowStartHour",
           COALESCE(b."windowEndHour", ${BULK_POLICY_DEFAULTS.windowEndHour}::int) AS "windowEndHour",
           COALESCE(b."timeZone", t."timeZone") AS "timeZone"
      FROM "Tenant" t LEFT JOIN "BulkMessagePolicy" b ON b."tenantId" = t."id"
     WHERE t."id" = ${tenantId}::uuid`.execute(tx);
  if (!rows[0]) throw new Error("tenant not found");
  return rows[0];
}

/** The window's hours as the database bounds them: start before end (BulkMessagePolicy_values_check). */
function windowProblem(v: { windowStartHour: number; windowEndHour: number }) {
  return v.windowStartHour < v.windowEndHour
    ? null
    : new AppError("invalid_arguments", "The send window must start before it ends (hours 0–24, same day).", {
        reason: "invalid_window",
        problems: [{ path: "$.windowEndHour", expected: "after windowStartHour", message: "not after the start" }],
      });
}

async function readBulkPolicy(tx: Sql, tenantId: string): Promise<BulkPolicyView> {
  const p = await bulkPolicyOf(tx, tenantId);
  const [own] = (
    await sql<{ timeZone: string | null; updatedAt: Date }>`
      SELECT "timeZone", "updatedAt" FROM "BulkMessagePolicy" WHERE "tenantId" = ${tenantId}::uuid`.execute(tx)
  ).rows;
  return { ...p, ownTimeZone: !!own?.timeZone, updatedAt: own ? own.updatedAt.toISOString() : null };
}

/** GET /api/admin/segments/policy: the tenant's bulk-message policy in force (its defaults when never set). */
export async function getBulkPolicy(actor: Actor): Promise<BulkPolicyView> {
  assertCan(actor.roles, "admin:manage");
  return readBulkPolicy(sqlPool(), actor.tenantId);
}

/** The values a BulkMessagePolicy row holds (timeZone null: the tenant's). */
type BulkPolicyRow = Omit<BulkPolicy, "timeZone"> & { timeZone: string | null };

/** What an admin change of the policy carries: the row to write, and the policy in force before and after, as read. */
export type BulkPolicyChange = { values: BulkPolicyRow; before: BulkPolicy; after: BulkPolicy };

export type BulkPolicySet = ({ status: "applied" } & BulkPolicyView) | QueuedAdminChange;

/**
 * PUT /api/admin/segments/policy {recipientsThreshold?, dailyRecipientsCap?, tolerancePercent?, windowStartHour?,
 * windowEndHour?, timeZone?, stepUpPassword?}: the named values over the current ones, after step-up. A change that
 * tightens or keeps every control applies at once; one that loosens any (bulkPolicyLoosens: a higher threshold, cap or
 * tolerance, no cap, a wider window, another time zone) waits for a second, independent admin (AdminChange
 * bulk_message_policy), like dropping a kind from who confirms. Audited before → after with what loosens
 * (`loosens`). Proposals already prepared keep the values they hashed; new ones use these.
 */
export async function setBulkPolicy(actor: Actor, raw: unknown): Promise<BulkPolicySet> {
  assertCan(actor.roles, "admin:manage");
  const input = parseForm(setBulkPolicyInput, raw);
  await requireStepUp(actor, input.stepUpPassword);
  return transaction(async (tx) => {
    // One change of the policy at a time per tenant, an approved one included (decideAdminChange holds the same
    // lock): the tenant's staff lock, which the second-admin queue needs anyway (the row may not exist yet).
    await lockTenantStaff(tx, actor.tenantId);
    const before = await readBulkPolicy(sqlOf(tx), actor.tenantId);
    const { stepUpPassword: _, ...values } = input;
    const own = await tx.bulkMessagePolicy.findUnique({ where: { tenantId: actor.tenantId } });
    const next: BulkPolicyRow = {
      recipientsThreshold: values.recipientsThreshold ?? before.recipientsThreshold,
      dailyRecipientsCap:
        values.dailyRecipientsCap !== undefined ? values.dailyRecipientsCap : before.dailyRecipientsCap,
      tolerancePercent: values.tolerancePercent ?? before.tolerancePercent,
      windowStartHour: values.windowStartHour ?? before.windowStartHour,
      windowEndHour: values.windowEndHour ?? before.windowEndHour,
      timeZone: values.timeZone !== undefined ? values.timeZone : (own?.timeZone ?? null),
    };
    const invalid = windowProblem(next);
    if (invalid) throw invalid;
    const { timeZone: tenantZone } = await tx.tenant.findUniqueOrThrow({
      where: { id: actor.tenantId },
      select: { timeZone: true },
    });
    const after: BulkPolicy = { ...next, timeZone: next.timeZone ?? tenantZone };
    const loosens = bulkPolicyLoosens(before, after);
    if (loosens.length === 0)
      return { status: "applied" as const, ...(await applyBulkPolicy(tx, actor, before, next)) };
    const change: BulkPolicyChange = { values: next, before: policyAudit(before), after };
    return queueAdminChange(tx, actor, {
      kind: "bulk_message_policy",
      targetId: null,
      payload: change,
      target: { kind: "bulk_message_policy", loosens },
      before: policyAudit(before),
    });
  });
}

/**
 * Writes the row and audits it, before → after with what loosens; `why`: the approved admin change applied
 * (`change`), or the tenant's time-zone change it keeps the window from (`keptOnTenantZoneChange`).
 */
async function applyBulkPolicy(
  tx: Tx,
  actor: Actor,
  before: BulkPolicyView,
  next: BulkPolicyRow,
  why: { change: string } | { keptOnTenantZoneChange: true } | Record<string, never> = {},
): Promise<BulkPolicyView> {
  await tx.bulkMessagePolicy.upsert({
    where: { tenantId: actor.tenantId },
    create: { tenantId: actor.tenantId, ...next },
    update: { ...next, updatedAt: new Date() },
  });
  const after = await readBulkPolicy(sqlOf(tx), actor.tenantId);
  await recordAdminEvent(tx, actor, {
    action: "bulk_message_policy",
    target: { kind: "bulk_message_policy", ...why },
    before: policyAudit(before),
    after: { ...policyAudit(after), loosens: bulkPolicyLoosens(before, after) },
    clear: [...POLICY_FIELDS, "loosens", "change"],
  });
  return after;
}

/**
 * Applies an approved loosening in the deciding transaction (decide-admin-change.ts, under the tenant's staff lock,
 * as setBulkPolicy): the policy in force must still be the one the change was proposed against, else it is stale and
 * nothing changes.
 */
export async function applyApprovedBulkPolicy(tx: Tx, actor: Actor, change: BulkPolicyChange, id: string) {
  const current = await readBulkPolicy(sqlOf(tx), actor.tenantId);
  if (POLICY_FIELDS.some((k) => current[k] !== change.before[k]))
    throw new AppError(
      "permission_denied",
      "The bulk-message policy changed since this was proposed; reject it and propose it again.",
      { reason: "stale" },
    );
  await applyBulkPolicy(tx, actor, current, change.values, { change: id });
}

/**
 * A tenant's time-zone change must not move the bulk-message send window: another zone is a loosening that waits for
 * a second admin (setBulkPolicy), and the tenant settings take one admin. When the policy follows the tenant's zone,
 * it keeps the zone in force before the change as its own, audited as a bulk_message_policy event that loosens
 * nothing. Called by updateTenantSettings under the tenant's staff lock, before the tenant row changes; a policy
 * with its own zone is left as it is.
 */
export async function keepBulkWindowZone(tx: Tx, actor: Actor): Promise<void> {
  const before = await readBulkPolicy(sqlOf(tx), actor.tenantId);
  if (!before.ownTimeZone)
    await applyBulkPolicy(tx, actor, before, policyAudit(before), { keptOnTenantZoneChange: true });
}

const POLICY_FIELDS = BULK_POLICY_CONTROLS;
const policyAudit = (v: BulkPolicy): BulkPolicy => ({
  recipientsThreshold: v.recipientsThreshold,
  dailyRecipientsCap: v.dailyRecipientsCap,
  tolerancePercent: v.tolerancePercent,
  windowStartHour: v.windowStartHour,
  windowEndHour: v.windowEndHour,
  timeZone: v.timeZone,
});
