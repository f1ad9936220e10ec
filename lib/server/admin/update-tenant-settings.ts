import "server-only";
import { sql, sqlOf } from "@/lib/server/db/sql";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { updateTenantSettingsInput, type TenantSettings } from "@/lib/schemas/tenant";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { recordAdminEvent } from "./admin-audit";
import { lockTenantStaff } from "./admin-change-store";
import { keepBulkWindowZone } from "./segments";
import { parseForm } from "./zod-problem";
import { transaction } from "@/lib/server/db/transaction";

export type { TenantSettings };

const fields = { slug: true, name: true, currency: true, locale: true, timeZone: true } as const;

/** The admin's own tenant's settings; `currencyLocked` once it has orders (amounts are stored in that currency). */
export async function getTenantSettings(actor: Actor): Promise<TenantSettings> {
  assertCan(actor.roles, "admin:manage");
  const t = await db().tenant.findFirst({
    where: { id: actor.tenantId, active: true },
    select: { ...fields, _count: { select: { orders: true } } },
  });
  if (!t) throw new AppError("not_found", "Tenant not found.");
  return {
    slug: t.slug,
    name: t.name,
    currency: t.currency,
    locale: t.locale,
    timeZone: t.timeZone,
    currencyLocked: t._count.orders > 0,
  };
}

/**
 * Admins edit their own tenant's name, locale and time zone (docs/admin-api.md); the currency only while the tenant
 * has no orders. The row is locked for the change, the UPDATE carries the tenant (and, for a currency change, "no
 * orders") in its where, and the audit event `admin:update_tenant` (before → after) commits with it. A new time zone
 * does not move the bulk-message send window (keepBulkWindowZone): that takes a second admin.
 */
export async function updateTenantSettings(actor: Actor, raw: unknown): Promise<TenantSettings> {
  assertCan(actor.roles, "admin:manage");
  const input = parseForm(updateTenantSettingsInput, raw);
  return transaction(async (tx) => {
    // The staff lock first, as every bulk-policy write takes it before its row (whose key locks the tenant row).
    await lockTenantStaff(tx, actor.tenantId);
    await sql`SELECT 1 FROM "Tenant" WHERE "id" = ${actor.tenantId}::uuid FOR UPDATE`.execute(sqlOf(tx));
    const before = await tx.tenant.findFirst({ where: { id: actor.tenantId, active: true }, select: fields });
    if (!before) throw new AppError("not_found", "Tenant not found.");
    if (input.timeZone !== undefined && input.timeZone !== before.timeZone) await keepBulkWindowZone(tx, actor);
    const data = { name: input.name, locale: input.locale, timeZone: input.timeZone, currency: input.currency };
    const changesCurrency = input.currency !== undefined && input.currency !== before.currency;
    const updated = await tx.tenant.updateMany({
      where: { id: actor.tenantId, active: true, ...(changesCurrency ? { orders: { none: {} } } : {}) },
      data,
    });
    if (updated.count !== 1) {
      throw new AppError("invalid_arguments", "currency: The currency is fixed once the tenant has orders.", {
        field: "currency",
        problem: "has_orders",
      });
    }
    const after = { ...before, ...Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined)) };
    await recordAdminEvent(tx, actor, {
      action: "update_tenant",
      target: { kind: "tenant", id: actor.tenantId, slug: before.slug },
      before: { name: before.name, currency: before.currency, locale: before.locale, timeZone: before.timeZone },
      after: { name: after.name, currency: after.currency, locale: after.locale, timeZone: after.timeZone },
      clear: ["name", "currency", "locale", "timeZone"],
    });
    const orders = await tx.order.count({ where: { tenantId: actor.tenantId } });
    return {
      slug: before.slug,
      name: after.name,
      currency: after.currency,
      locale: after.locale,
      timeZone: after.timeZone,
      currencyLocked: orders > 0,
    };
  });
}
