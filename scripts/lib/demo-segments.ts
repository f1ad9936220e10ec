// Demo: the segment each demo tenant's admin declared (send_bulk_message, docs/action-kinds.md "The bulk message"),
// so the demo's queue can hold a bulk message waiting for review. Version 1, written as the admin API writes it
// (lib/server/admin/segments.ts) by the tenant's admin. The filter language has no fulfilment and no relative dates
// (lib/schemas/segments.ts): "the customers whose order of October 2026 is paid", not "delivered, last 90 days".
import type { PrismaClient } from "../../lib/server/db/generated/client";
import type { SegmentFilter } from "../../lib/schemas/segments";

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export type DemoSegment = { slug: string; name: string; filter: SegmentFilter; text: string };

/** Per demo tenant: the segment and the text the demo's bulk message sends to it. */
export const demoSegments: Record<string, DemoSegment> = {
  "tienda-es": {
    slug: "pedidos-octubre-2026",
    name: "Pedidos pagados de octubre de 2026 (España)",
    filter: {
      statuses: ["paid", "partially_refunded"],
      placedFrom: "2026-10-01T00:00:00+02:00",
      placedTo: "2026-11-01T00:00:00+01:00",
      countries: ["ES"],
    },
    text: "¿Qué tal tu pedido de octubre? Responde a este correo y cuéntanoslo: nos ayuda a mejorar.",
  },
  "shop-us": {
    slug: "october-2026-buyers",
    name: "Paid orders of October 2026 (US)",
    filter: {
      statuses: ["paid", "partially_refunded"],
      placedFrom: "2026-10-01T00:00:00-04:00",
      placedTo: "2026-11-01T00:00:00-04:00",
      countries: ["US"],
    },
    text: "How was your October order? Reply to this e-mail and tell us: it helps us do better.",
  },
};

/**
 * Inserts the tenant's demo segment (version 1, declared by its admin) in the seed's transaction. `id` and
 * `createdById` come from the seed (its stable ids).
 */
export async function seedDemoSegment(
  tx: Tx,
  tenantSlug: string,
  ids: { tenantId: string; id: string; createdById: string | null },
) {
  const s = demoSegments[tenantSlug];
  if (!s) return;
  await tx.segment.create({
    data: { ...ids, slug: s.slug, version: 1, name: s.name, filter: s.filter },
  });
}
