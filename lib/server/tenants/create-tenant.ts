import "server-only";
import { takenError } from "@/lib/domain/validation";
import { createTenantInput } from "@/lib/schemas/tenant";
import { recordOperatorEvent } from "@/lib/server/audit/record-event";
import { sqlOf } from "@/lib/server/db/sql";
import { transactionUnlessTaken } from "@/lib/server/db/unique-violation";
import { ensureActiveVersion } from "@/lib/server/admin/policy/policy-store";
import { issueSetupToken } from "@/lib/server/admin/setup-token";
import { parseForm } from "@/lib/server/admin/zod-problem";
import { NEW_TENANT_DEFAULTS } from "@/lib/domain/policy";
import { currencyExponent } from "@/lib/domain/format-money";

export type CreatedTenant = { tenantId: string; slug: string; adminId: string; setupUrl: string; expiresAt: Date };

/**
 * An operator's first step on a new database (npm run tenant:create, docs/operations.md): the tenant, its
 * policy version 1, its first admin (no password yet) and that admin's one-time setup link, plus the audit
 * event of it all (actor: system "operator"), in one transaction. The link is returned once and stored only
 * as a hash. An existing slug or email is refused (`invalid_arguments`, naming the field); nothing is written.
 */
export async function createTenant(raw: unknown): Promise<CreatedTenant> {
  const input = parseForm(createTenantInput, raw);
  const adminName = input.adminName ?? input.adminEmail.split("@")[0]!;
  const { slug, name, currency, locale, timeZone } = input;
  return transactionUnlessTaken(
    async (tx) => {
      // Safe from the start (docs/operations.md "Safe defaults"): four eyes above an amount, a daily cap per
      // reviewer, and every approval confirmed with the password or a passkey. Loosening waits for a second admin.
      const unit = 10 ** currencyExponent(currency);
      const tenant = await tx.tenant.create({
        data: {
          slug,
          name,
          currency,
          locale,
          timeZone,
          dualApprovalThresholdMinor: NEW_TENANT_DEFAULTS.dualApprovalThresholdMajor * unit,
          reviewerDailyApprovalLimitMinor: NEW_TENANT_DEFAULTS.reviewerDailyApprovalLimitMajor * unit,
          approvalSessionMinutes: NEW_TENANT_DEFAULTS.approvalSessionMinutes,
        },
      });
      const policy = await ensureActiveVersion(tx, tenant.id);
      const admin = await tx.staffUser.create({
        data: { tenantId: tenant.id, email: input.adminEmail, name: adminName, roles: ["admin"] },
      });
      const link = await issueSetupToken(tx, { tenantId: tenant.id, staffUserId: admin.id, createdById: null });
      await recordOperatorEvent(sqlOf(tx), "cli", {
        tenantId: tenant.id,
        action: "operator:create_tenant",
        data: {
          tenant: {
            id: tenant.id,
            slug: tenant.slug,
            name: tenant.name,
            currency: tenant.currency,
            locale: tenant.locale,
            timeZone: tenant.timeZone,
          },
          policy: { version: policy.version },
          admin: {
            id: admin.id,
            email: input.adminEmail,
            roles: admin.roles,
            setupLinkExpiresAt: link.expiresAt.toISOString(),
          },
        },
        redaction: {
          clear: [
            "tenant",
            "policy",
            "admin",
            "id",
            "slug",
            "name",
            "currency",
            "locale",
            "timeZone",
            "version",
            "roles",
            "setupLinkExpiresAt",
          ],
        },
      });
      return {
        tenantId: tenant.id,
        slug: tenant.slug,
        adminId: admin.id,
        setupUrl: link.setupUrl,
        expiresAt: link.expiresAt,
      };
    },
    (error) =>
      JSON.stringify(error.meta ?? {}).includes("email")
        ? takenError("adminEmail", `The email ${input.adminEmail} already belongs to an account.`)
        : takenError("slug", `A tenant with the slug "${input.slug}" already exists.`),
    // An operator's one-off command, not a request path: a busy database may take longer than a request may.
    { timeout: 30_000, maxWait: 10_000 },
  );
}
