import { z } from "zod";
import { storedText } from "./stored";
import { canonicalTimeZone } from "@/lib/domain/local-time";

// A tenant's own settings: created by the operator (npm run tenant:create, lib/server/tenants/create-tenant.ts)
// and edited by its admins (lib/server/admin/update-tenant-settings.ts).

const name = storedText(120);

/** A BCP 47 language tag, in its canonical form ("en", "es-ES"). */
const locale = z
  .string()
  .trim()
  .min(2)
  .max(35)
  .transform((v, ctx) => {
    try {
      const [canonical] = Intl.getCanonicalLocales(v);
      if (canonical) return canonical;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: "custom", message: "Not a BCP 47 language tag (for example en, es-ES)." });
    return z.NEVER;
  });

/** An IANA time zone the platform knows ("Europe/Berlin"), aliases resolved. */
const timeZone = z
  .string()
  .trim()
  .max(64)
  .transform((v, ctx) => {
    const canonical = canonicalTimeZone(v);
    if (canonical) return canonical;
    ctx.addIssue({ code: "custom", message: "Not an IANA time zone (for example Europe/Berlin)." });
    return z.NEVER;
  });

/** An ISO 4217 currency code the platform formats ("EUR"). */
const currency = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, "Three letters, ISO 4217 (for example EUR).")
  .refine((v) => Intl.supportedValuesOf("currency").includes(v), "Not an ISO 4217 currency code.");

export const createTenantInput = z.strictObject({
  slug: z
    .string()
    .trim()
    .regex(
      /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/,
      "2–40 lower-case letters, digits and hyphens, starting and ending with a letter or digit.",
    )
    .min(2),
  name,
  currency,
  locale,
  timeZone,
  adminEmail: z.string().trim().toLowerCase().max(320).pipe(z.email()),
  adminName: storedText(120).optional(),
});
export type CreateTenantInput = z.input<typeof createTenantInput>;

export const updateTenantSettingsInput = z
  .strictObject({
    name: name.optional(),
    locale: locale.optional(),
    timeZone: timeZone.optional(),
    currency: currency.optional(),
  })
  .refine(
    (v) => v.name !== undefined || v.locale !== undefined || v.timeZone !== undefined || v.currency !== undefined,
    "Change at least one setting.",
  );
export type UpdateTenantSettingsInput = z.input<typeof updateTenantSettingsInput>;
