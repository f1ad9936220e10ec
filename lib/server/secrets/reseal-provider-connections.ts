import "server-only";
import { openSecret, sealSecret, secretAad, SecretBoxError, type SecretsKey } from "@/lib/domain/secret-box";
import { ACTION_ENDPOINT_SECRET_FIELD } from "@/lib/server/action-endpoint/stored-endpoint";
import { recordOperatorEvent } from "@/lib/server/audit/record-event";
import { db } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { secretsKeys } from "@/lib/server/env";
import { transaction } from "@/lib/server/db/transaction";

export type ResealSummary = {
  resealed: number;
  current: number;
  /** Rows that did not open; `what` names the table (a provider connection or an action endpoint). */
  failed: { tenantId: string; reason: string; what: "provider_connection" | "action_endpoint" }[];
};

/**
 * The rotation of SECRETS_KEY (docs/operations.md "Keys and rotation"): every provider connection not yet sealed
 * under the current key is opened (with SECRETS_KEY or SECRETS_KEY_PREVIOUS) and sealed again under
 * SECRETS_KEY, one guarded write per row (`where tenantId and keyId` is still the old one, so a connection an
 * admin changed meanwhile is left as the admin wrote it) with its audit event in the same transaction. The
 * version goes up, so every running process rebuilds that tenant's provider. A row that does not open is
 * reported, never changed (fail closed), and the others go on. Idempotent: a second run finds nothing to do.
 * The tenants' action endpoint secrets (lib/server/action-endpoint) are sealed under the same key and re-sealed
 * the same way in the same run; the summary counts both.
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
      summary.failed.push({ tenantId: row.tenantId, reason: error.message, what: "provider_connection" });
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
  await resealActionEndpoints(keys, current, summary);
  return summary;
}

/** The same rotation for the action endpoints' signing secrets (one sealed field per row), into `summary`. */
async function resealActionEndpoints(keys: SecretsKey[], current: SecretsKey, summary: ResealSummary): Promise<void> {
  const rows = await db().actionEndpoint.findMany({ orderBy: { tenantId: "asc" } });
  for (const row of rows) {
    // A rotation's previous secret is resealed too while it still signs; an overlap that ended is dropped.
    const previousLive = row.previousSecretSealed !== null && (row.previousSecretUntil ?? new Date(0)) > new Date();
    const previousStale = row.previousSecretSealed !== null && (!previousLive || row.previousKeyId !== current.id);
    if (row.keyId === current.id && !previousStale) {
      summary.current++;
      continue;
    }
    const aad = secretAad(row.tenantId, ACTION_ENDPOINT_SECRET_FIELD);
    let secret: string;
    let previous: string | null = null;
    try {
      secret = openSecret(keys, { keyId: row.keyId, sealed: row.secretSealed }, aad);
      if (previousLive)
        previous = openSecret(keys, { keyId: row.previousKeyId!, sealed: row.previousSecretSealed! }, aad);
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      summary.failed.push({ tenantId: row.tenantId, reason: error.message, what: "action_endpoint" });
      continue;
    }
    const changed = await transaction(async (tx) => {
      const { count } = await tx.actionEndpoint.updateMany({
        where: { tenantId: row.tenantId, keyId: row.keyId, version: row.version },
        data: {
          secretSealed: sealSecret(current, secret, aad).sealed,
          keyId: current.id,
          ...(previous !== null
            ? { previousSecretSealed: sealSecret(current, previous, aad).sealed, previousKeyId: current.id }
            : { previousSecretSealed: null, previousKeyId: null, previousSecretUntil: null }),
          version: { increment: 1 },
        },
      });
      if (count === 1) {
        await recordOperatorEvent(sqlOf(tx), "operator_cli", {
          tenantId: row.tenantId,
          action: "operator:reseal_action_endpoint",
          data: { fromKeyId: row.keyId, toKeyId: current.id },
          redaction: { clear: ["fromKeyId", "toKeyId"] },
        });
      }
      return count === 1;
    });
    if (changed) summary.resealed++;
    else summary.current++;
  }
}
