// Segments (send_bulk_message, docs/action-kinds.md and docs/admin-api.md): named filters over the tenant's orders,
// declared by admins. Defined once here: the admin API and form (segmentInput), the stored filter (segmentFilter) and
// the agent's reference to a segment (segmentSlug).
import { z } from "zod";
import { stepUp } from "./step-up";

export const ORDER_STATUSES = ["paid", "partially_refunded", "refunded", "cancelled"] as const;

/** A segment's name as agents and admins use it: lower case letters, digits and dashes. */
export const segmentSlug = z
  .string()
  .min(1)
  .max(60)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/)
  .describe('The segment\'s name exactly as the shop declared it, for example "mug-buyers-2026".');

const isoDateTime = z.iso.datetime({ offset: true });

/**
 * The filter (every part optional; the parts present must all hold): the order's status is one of `statuses`; it has
 * a line with one of `skus`; it was placed at or after `placedFrom` and before `placedTo`; its shipping address is in
 * one of `countries` (ISO 3166-1 alpha-2). An empty filter is refused: a segment is never "every customer" by mistake.
 */
export const segmentFilter = z
  .strictObject({
    statuses: z.array(z.enum(ORDER_STATUSES)).min(1).max(ORDER_STATUSES.length).optional(),
    skus: z.array(z.string().min(1).max(100)).min(1).max(50).optional(),
    placedFrom: isoDateTime.optional(),
    placedTo: isoDateTime.optional(),
    countries: z
      .array(z.string().regex(/^[A-Z]{2}$/))
      .min(1)
      .max(50)
      .optional(),
  })
  .refine((f) => Object.keys(f).length > 0, { message: "a segment needs at least one condition" })
  .refine((f) => !f.placedFrom || !f.placedTo || Date.parse(f.placedFrom) < Date.parse(f.placedTo), {
    message: "placedFrom must be before placedTo",
    path: ["placedTo"],
  });
export type SegmentFilter = z.infer<typeof segmentFilter>;

/** `POST /api/admin/segments`: a new segment, or the next version of an existing slug. */
export const segmentInput = z.strictObject({
  slug: segmentSlug,
  name: z.string().trim().min(1).max(120),
  filter: segmentFilter,
});
export type SegmentInput = z.infer<typeof segmentInput>;
/** The admin API's body: the segment and the step-up password when the session's step-up is stale. */
export const createSegmentInput = segmentInput.extend(stepUp);

/** A segment as the admin API answers it (its newest version). */
export type SegmentView = {
  id: string;
  slug: string;
  version: number;
  name: string;
  filter: SegmentFilter;
  createdAt: string;
};
