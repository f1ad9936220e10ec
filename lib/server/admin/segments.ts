import "server-only";
// Segments (docs/admin-api.md "Segments"; send_bulk_message, docs/action-kinds.md): the tenant's named filters over
// its orders, declared by admins. Versioned like policy: a POST of a slug that exists adds its next version (a new
// row; the old one stays, so a proposal that hashed it still names exactly what it used), never an update. Listing
// answers each slug's newest version. Tenant-scoped in every query: another tenant's segment is simply not there.
// Writing one is an admin change: step-up first, audited with the filter (no personal data).
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { createSegmentInput, type SegmentFilter, type SegmentView } from "@/lib/schemas/segments";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { db } from "@/lib/server/db/client";
import { sql, sqlOf } from "@/lib/server/db/sql";
import { transaction } from "@/lib/server/db/transaction";
import { recordAdminEvent } from "./admin-audit";
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
