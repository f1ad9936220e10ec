import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import { issueIntegrationKeyInput } from "@/lib/schemas/orders-api";
import { recordAdminEvent } from "@/lib/server/admin/admin-audit";
import { credentialToIssue } from "@/lib/server/admin/credential-to-issue";
import { parseForm } from "@/lib/server/admin/zod-problem";
import type { Actor } from "@/lib/server/auth/actor";
import { hashIntegrationKey } from "./authenticate-integration-key";
import { transaction } from "@/lib/server/db/transaction";

/**
 * Issues an integration key of the admin's tenant (the Orders API's credential). The key (`igk_` + 256 random
 * bits) is returned once; only its SHA-256 and a short prefix are stored. Scopes say what it may do; an
 * optional expiry makes it answer 401 afterwards. Audited with the admin's before → after.
 */
export async function issueIntegrationKey(actor: Actor, raw: unknown, now = new Date()) {
  assertCan(actor.roles, "admin:manage");
  const input = parseForm(issueIntegrationKeyInput, raw);
  const { key, keyPrefix, expiresAt } = await credentialToIssue(actor, input, "igk", now);
  const scopes = [...new Set(input.scopes)].sort();
  return transaction(async (tx) => {
    const row = await tx.integrationKey.create({
      data: {
        tenantId: actor.tenantId,
        name: input.label,
        keyPrefix,
        keyHash: hashIntegrationKey(key),
        scopes,
        expiresAt,
        createdById: actor.userId,
      },
    });
    await recordAdminEvent(tx, actor, {
      action: "issue_integration_key",
      target: { kind: "integration_key", id: row.id, prefix: keyPrefix },
      after: { label: input.label, scopes, expiresAt: expiresAt?.toISOString() ?? null },
      clear: ["prefix", "scopes"],
    });
    return { id: row.id, key, keyPrefix, scopes, expiresAt };
  });
}
