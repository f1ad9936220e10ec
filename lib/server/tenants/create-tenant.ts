import "server-only";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/outcome";
import { createTenantInput } from "@/lib/schemas/tenant";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { db } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { Prisma } from "@/lib/server/db/generated/client";
import { ensureActiveVersion } from "@/lib/server/admin/policy/policy-store";
import { issueSetupToken } from "@/lib/server/admin/setup-token";
import { parseForm } from "@/lib/server/admin/zod-problem";

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
  try {
    return await db().$transaction(async (tx) => {
      const tenant = await tx.tenant.create({
        data: {
          slug: input.slug,
          name: input.name,
          currency: input.currency,
          locale: input.locale,
          timeZone: input.timeZone,
        },
      });
      const policy = await ensureActiveVersion(tx, tenant.id);
      const admin = await tx.staffUser.create({
        data: { tenantId: tenant.id, email: input.adminEmail, name: adminName, roles: ["admin"] },
      });
      const link = await issueSetupToken(tx, { tenantId: tenant.id, staffUserId: admin.id, createdById: null });
      await recordAuditEvent(sqlOf(tx), {
        tenantId: tenant.id,
        traceId: `operator-${randomUUID()}`,
        actor: { type: "system", id: "operator", authMethod: "cli" },
        action: "operator:create_tenant",
        outcome: "ok",
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
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      const target = JSON.stringify(error.meta ?? {});
      if (target.includes("email")) {
        throw new AppError("invalid_arguments", `The email ${input.adminEmail} already belongs to an account.`, {
          field: "adminEmail",
          problem: "taken",
        });
      }
      throw new AppError("invalid_arguments", `A tenant with the slug "${input.slug}" already exists.`, {
        field: "slug",
        problem: "taken",
      });
    }
    throw error;
  }
}
