import "server-only";
// The bulk message's audience (docs/action-kinds.md, "The bulk message"): the customers of the tenant's orders that a
// segment's filter selects, deduplicated, with a contact on the channel — computed at prepare, again at approval and
// before execution, always from the system of record. Also the masked sample, the recipients' digest and the tenant's
// bulk-message policy (its defaults when the tenant has no row).
import { createHash } from "node:crypto";
import { segmentFilter, type SegmentFilter } from "@/lib/schemas/segments";
import { sql, type Sql } from "@/lib/server/db/sql";
import type { BulkMessageChannel } from "./tools";

/** How many masked recipients the reviewer sees. */
export const SAMPLE_SIZE = 5;
/** The largest audience one proposal may address (its recipients are kept, hashed, in the proposal's source). */
export const MAX_AUDIENCE = 10_000;

export type Recipient = { id: string; contact: string };

/** A segment's version as stored (its filter never changes: a change is a new version). */
export type SegmentRow = { id: string; slug: string; version: number; name: string; filter: SegmentFilter };

/**
 * The customers the filter selects — customers of the tenant's orders matching every condition, once each, in
 * code-unit order of their ids — split into the recipients (a contact on the channel: the e-mail address, or for
 * `sms` the phone number our copy of the customer holds) and how many were skipped for having none.
 */
export async function selectAudience(
  tx: Sql,
  tenantId: string,
  rawFilter: unknown,
  channel: BulkMessageChannel,
): Promise<{ recipients: Recipient[]; withoutContact: number }> {
  const f = segmentFilter.parse(rawFilter);
  const { rows } = await sql<{ id: string; contact: string | null }>`
    SELECT DISTINCT c."id", CASE WHEN ${channel}::text = 'sms' THEN c."phone" ELSE c."email" END AS "contact"
      FROM "Order" o JOIN "Customer" c ON c."tenantId" = o."tenantId" AND c."id" = o."customerId"
     WHERE o."tenantId" = ${tenantId}::uuid
       AND (${f.statuses ?? null}::text[] IS NULL OR o."status"::text = ANY(${f.statuses ?? null}::text[]))
       AND (${f.skus ?? null}::text[] IS NULL OR EXISTS (
             SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(o."items") = 'array' THEN o."items" ELSE '[]'::jsonb END) i
              WHERE i ->> 'sku' = ANY(${f.skus ?? null}::text[])))
       AND (${f.placedFrom ?? null}::timestamptz IS NULL
            OR o."placedAt" >= (${f.placedFrom ?? null}::timestamptz AT TIME ZONE 'UTC'))
       AND (${f.placedTo ?? null}::timestamptz IS NULL
            OR o."placedAt" < (${f.placedTo ?? null}::timestamptz AT TIME ZONE 'UTC'))
       AND (${f.countries ?? null}::text[] IS NULL OR o."shippingAddress" ->> 'country' = ANY(${f.countries ?? null}::text[]))`.execute(
    tx,
  );
  const recipients = rows
    .filter((r): r is Recipient => typeof r.contact === "string" && r.contact.trim() !== "")
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { recipients, withoutContact: rows.length - recipients.length };
}

/** The recipients alone (see selectAudience). */
export async function audienceOf(
  tx: Sql,
  tenantId: string,
  rawFilter: unknown,
  channel: BulkMessageChannel,
): Promise<Recipient[]> {
  return (await selectAudience(tx, tenantId, rawFilter, channel)).recipients;
}

/** SHA-256 (hex) of the JSON array of the recipients' ids in code-unit order: equal audiences, equal digests. */
export function recipientsDigest(ids: readonly string[]): string {
  const sorted = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256").update(JSON.stringify(sorted)).digest("hex");
}

/** An e-mail address as a reviewer sees it: enough to recognise it, not enough to read it (`a•••@e•••.com`). */
export function maskContact(value: string): string {
  const at = value.lastIndexOf("@");
  if (at < 0) return `${value.slice(0, 3)}${"•".repeat(Math.max(0, value.length - 5))}${value.slice(-2)}`;
  const domain = value.slice(at + 1);
  const dot = domain.lastIndexOf(".");
  const host = dot < 0 ? domain : domain.slice(0, dot);
  return `${value[0]}•••@${host[0] ?? ""}•••${dot < 0 ? "" : domain.slice(dot)}`;
}

/** The first SAMPLE_SIZE recipients (id order), masked. */
export const maskedSample = (recipients: readonly Recipient[]) =>
  recipients.slice(0, SAMPLE_SIZE).map((r) => maskContact(r.contact));

/** The newest version of the tenant's segment with that slug, or null (another tenant's is simply not found). */
export async function currentSegment(tx: Sql, tenantId: string, slug: string): Promise<SegmentRow | null> {
  const { rows } = await sql<SegmentRow>`
    SELECT "id", "slug", "version", "name", "filter" FROM "Segment"
     WHERE "tenantId" = ${tenantId}::uuid AND "slug" = ${slug} ORDER BY "version" DESC LIMIT 1`.execute(tx);
  return rows[0] ?? null;
}

// The tenant's bulk-message policy (its values and defaults) is read by the admin use case that sets it
// (lib/server/admin/segments.ts): one reader for the kind and the admin API.
export { BULK_POLICY_DEFAULTS, bulkPolicyOf, type BulkPolicy } from "@/lib/server/admin/segments";

/**
 * Whether the audience moved beyond the tolerance: the recipients added and removed, counted together, more than
 * `tolerancePercent` of the approved count (0: any change of the digest).
 */
export function beyondTolerance(
  approved: readonly string[],
  now: readonly string[],
  tolerancePercent: number,
): boolean {
  if (recipientsDigest(approved) === recipientsDigest(now)) return false;
  if (tolerancePercent <= 0) return true;
  const before = new Set(approved);
  const after = new Set(now);
  const moved = [...after].filter((id) => !before.has(id)).length + [...before].filter((id) => !after.has(id)).length;
  return moved * 100 > approved.length * tolerancePercent;
}
