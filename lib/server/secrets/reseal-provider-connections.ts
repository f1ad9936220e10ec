import "server-only";
import { openSecret, sealSecret, secretAad, SecretBoxError } from "@/lib/domain/secret-box";
import { recordOperatorEvent } from "@/lib/server/audit/record-event";
import { db } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { secretsKeys } from "@/lib/server/env";
import { transaction } from "@/lib/server/db/transaction";

export type ResealSummary = { resealed: number; current: number; failed: { tenantId: string; reason: string }[] };

/**
 * The rotation of SECRETS_KEY (docs/operations.md "Keys and rotation"): every provider connection not yet sealed
 * under the current key is opened (with SECRETS_KEY or SECRETS_KEY_PREVIOUS) and sealed again under
 * SECRETS_KEY, one guarded write per row (`where tenantId and keyId` is still the old one, so a connection an
 * admin changed meanwhile is left as the admin wrote it) with its audit event in the same transaction. The
 * version goes up, so every running process rebuilds that tenant's provider. A row that does not open is
 * reported, never changed (fail closed), and the others go on. Idempotent: a second run finds nothing to do.
 */
export async function resealProviderConnections(): Promise<ResealSummary> {
  const { current, previous } = secretsKeys();
  if (!current) throw new Error("SECRETS_KEY is not set: nothing to seal with");
  const keys = [current, previous].filter((k) => k !== null);
  const rows = await db().providerConnection.findMany({ orderBy: { tenantId: "asc" } });
  const summary: ResealSummary = { resealed: 0, current: 0, failed: [] };
  for (const row of rows) {
    if (row.keyId === current.id) {
      summary.current++;
      continue;
    }
    let apiKey: string, webhookSecret: string;
    try {
      apiKey = openSecret(keys, { keyId: row.keyId, sealed: row.apiKeySealed }, secretAad(row.tenantId, "apiKey"));
      webhookSecret = openSecret(
        keys,
        { keyId: row.keyId, sealed: row.webhookSecretSealed },
        secretAad(row.tenantId, "webhookSecret"),
      );
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      summary.failed.push({ tenantId: row.tenantId, reason: error.message });
      continue;
    }
    const changed = await transaction(async (tx) => {
      const { count } = await tx.providerConnection.updateMany({
        where: { tenantId: row.tenantId, keyId: row.keyId, version: row.version },
        data: {
          apiKeySealed: sealSecret(current, apiKey, secretAad(row.tenantId, "apiKey")).sealed,
          webhookSecretSealed: sealSecret(current, webhookSecret, secretAad(row.tenantId, "webhookSecret")).sealed,
          keyId: current.id,
          version: { increment: 1 },
        },
      });
      if (count === 1) {
        await recordOperatorEvent(sqlOf(tx), "operator_cli", {
          tenantId: row.tenantId,
          action: "operator:reseal_provider_connection",
          data: { fromKeyId: row.keyId, toKeyId: current.id },
          redaction: { clear: ["fromKeyId", "toKeyId"] },
        });
      }
      return count === 1;
    });
    if (changed) summary.resealed++;
    else summary.current++;
  }
  return summary;
}
