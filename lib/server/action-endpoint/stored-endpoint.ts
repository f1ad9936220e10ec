import "server-only";
import { openSecret, secretAad, SecretBoxError } from "@/lib/domain/secret-box";
import { db } from "@/lib/server/db/client";
import { secretsKeys } from "@/lib/server/env";

/** The field the endpoint's secret is sealed under (the AAD binds it to the tenant and this field). */
export const ACTION_ENDPOINT_SECRET_FIELD = "actionEndpointSecret";

/** A tenant's action endpoint, opened: where to send and the `whsec_…` secret to sign with. Never logged or returned. */
export type OpenedActionEndpoint = {
  tenantId: string;
  url: string;
  /** The current secret first; during a rotation's overlap the previous one beside it (both sign). */
  secrets: string[];
  version: number;
};

/**
 * The endpoint cannot be used, and nothing was sent: none is stored, its secret does not open on this server
 * (the key that sealed it is not configured, or the row is another tenant's), or the outbound check refuses its
 * URL. The message never holds the secret.
 */
export class ActionEndpointUnavailable extends Error {
  constructor(
    readonly problem: "not_configured" | "unusable" | "url_refused",
    message: string,
  ) {
    super(message);
    this.name = "ActionEndpointUnavailable";
  }
}

/** The tenant's endpoint with its secret opened (SECRETS_KEY, or SECRETS_KEY_PREVIOUS during a rotation). */
export async function openActionEndpoint(tenantId: string): Promise<OpenedActionEndpoint> {
  const row = await db().actionEndpoint.findUnique({
    where: { tenantId },
    select: {
      url: true,
      secretSealed: true,
      keyId: true,
      version: true,
      previousSecretSealed: true,
      previousKeyId: true,
      previousSecretUntil: true,
    },
  });
  if (!row)
    throw new ActionEndpointUnavailable(
      "not_configured",
      "This tenant has no action endpoint (Admin → Action endpoint).",
    );
  const { current, previous } = secretsKeys();
  const keys = [current, previous].filter((k) => k !== null);
  try {
    const aad = secretAad(tenantId, ACTION_ENDPOINT_SECRET_FIELD);
    const secrets = [openSecret(keys, { keyId: row.keyId, sealed: row.secretSealed }, aad)];
    // A rotation's overlap: the previous secret signs too until its end (a copied or unopenable one fails closed).
    if (
      row.previousSecretSealed &&
      row.previousKeyId &&
      row.previousSecretUntil &&
      row.previousSecretUntil > new Date()
    )
      secrets.push(openSecret(keys, { keyId: row.previousKeyId, sealed: row.previousSecretSealed }, aad));
    return { tenantId, url: row.url, secrets, version: row.version };
  } catch (error) {
    if (error instanceof SecretBoxError)
      throw new ActionEndpointUnavailable(
        "unusable",
        `The action endpoint's secret cannot be opened: ${error.message}`,
      );
    throw error;
  }
}
