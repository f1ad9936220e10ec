// Admins edit their own tenant's name, locale and time zone (audited before → after); the currency only while
// the tenant has no orders; other roles and other tenants are refused.
import { describe, expect, it } from "vitest";
import { getTenantSettings, updateTenantSettings } from "@/lib/server/admin/update-tenant-settings";
import { db } from "@/lib/server/db/client";
import { createTenant } from "@/lib/server/tenants/create-tenant";
import { actorFor } from "../support/actors";
import { actorOf } from "./audit-support";
import { ES, US } from "./gateway-support";

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { code?: string; message?: string; details?: unknown }) => ({
      code: e.code,
      message: e.message,
      details: e.details,
    }),
  );

describe("tenant settings", () => {
  it("an admin changes name, locale and time zone of their own tenant, audited before → after in the same transaction", async () => {
    const admin = await actorOf(ES, "admin");
    const before = await getTenantSettings(admin);
    expect(before.currencyLocked).toBe(true);
    const after = await updateTenantSettings(admin, {
      name: "Tienda Nueva",
      locale: "es-mx",
      timeZone: "America/Mexico_City",
    });
    expect(after).toMatchObject({
      slug: ES,
      name: "Tienda Nueva",
      locale: "es-MX",
      timeZone: "America/Mexico_City",
      currency: before.currency,
    });
    const row = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    expect(row).toMatchObject({ name: "Tienda Nueva", locale: "es-MX", timeZone: "America/Mexico_City" });
    const ev = await db().auditEvent.findFirstOrThrow({
      where: { tenantId: admin.tenantId, action: "admin:update_tenant" },
      orderBy: { pos: "desc" },
    });
    expect(ev).toMatchObject({ actorType: "staff", actorId: admin.userId, outcome: "ok" });
    expect(ev.data).toMatchObject({
      before: { name: before.name, locale: before.locale, timeZone: before.timeZone },
      after: { name: "Tienda Nueva", locale: "es-MX", timeZone: "America/Mexico_City" },
    });
    // The other tenant is untouched.
    expect((await db().tenant.findUniqueOrThrow({ where: { slug: US } })).name).not.toBe("Tienda Nueva");
  });

  it("refuses a currency change once orders exist, and bad values, naming the field; nothing changes", async () => {
    const admin = await actorOf(US, "admin");
    const before = await db().tenant.findUniqueOrThrow({ where: { slug: US } });
    expect(await refusal(updateTenantSettings(admin, { currency: "EUR" }))).toMatchObject({
      code: "invalid_arguments",
      details: { field: "currency", problem: "has_orders" },
    });
    expect(await refusal(updateTenantSettings(admin, { timeZone: "Mars/Olympus" }))).toMatchObject({
      code: "invalid_arguments",
      message: expect.stringMatching(/^timeZone: /),
    });
    expect(await refusal(updateTenantSettings(admin, { locale: "not a locale!" }))).toMatchObject({
      code: "invalid_arguments",
      message: expect.stringMatching(/^locale: /),
    });
    expect(await refusal(updateTenantSettings(admin, {}))).toMatchObject({ code: "invalid_arguments" });
    expect(await refusal(updateTenantSettings(admin, { slug: "taken-over" }))).toMatchObject({
      code: "invalid_arguments",
    });
    // The same currency is not a change: allowed with orders.
    await updateTenantSettings(admin, { currency: before.currency, name: before.name });
    expect(await db().tenant.findUniqueOrThrow({ where: { slug: US } })).toMatchObject({
      currency: before.currency,
      slug: US,
    });
  });

  it("allows a currency change while the tenant has no orders", async () => {
    const created = await createTenant({
      slug: "fresh-co",
      name: "Fresh",
      currency: "EUR",
      locale: "en",
      timeZone: "UTC",
      adminEmail: "owner@fresh.example",
    });
    const admin = await actorFor("owner@fresh.example");
    expect((await getTenantSettings(admin)).currencyLocked).toBe(false);
    expect(await updateTenantSettings(admin, { currency: "gbp" })).toMatchObject({
      currency: "GBP",
      currencyLocked: false,
    });
    expect((await db().tenant.findUniqueOrThrow({ where: { id: created.tenantId } })).currency).toBe("GBP");
  });

  it("tenant:create refuses a taken slug or admin email, naming the field, and writes nothing", async () => {
    const base = { name: "Twice", currency: "EUR", locale: "en", timeZone: "UTC" };
    await createTenant({ ...base, slug: "twice-co", adminEmail: "owner@twice.example" });
    const slugTaken = await refusal(createTenant({ ...base, slug: "twice-co", adminEmail: "other@twice.example" }));
    expect(slugTaken).toMatchObject({ code: "invalid_arguments", details: { field: "slug", problem: "taken" } });
    const emailTaken = await refusal(createTenant({ ...base, slug: "twice-two", adminEmail: "owner@twice.example" }));
    expect(emailTaken).toMatchObject({ code: "invalid_arguments", details: { field: "adminEmail", problem: "taken" } });
    expect(await db().tenant.count({ where: { slug: "twice-two" } })).toBe(0);
    expect(await db().staffUser.count({ where: { email: "other@twice.example" } })).toBe(0);
  });

  it("refuses non-admins", async () => {
    const reviewer = await actorOf(ES, "reviewer");
    expect(await refusal(updateTenantSettings(reviewer, { name: "x" }))).toMatchObject({ code: "permission_denied" });
    expect(await refusal(getTenantSettings(reviewer))).toMatchObject({ code: "permission_denied" });
  });
});
