// Secrets the demo runs with. They are public (they are in this repository), so a production start
// refuses every one of them (see lib/server/env.ts and scripts/start.ts).
export const demoSecrets = {
  NEXTAUTH_SECRET: "demo-only-nextauth-secret-do-not-use-in-production-0000",
  AUDIT_HMAC_KEY: "demo-only-audit-hmac-key-do-not-use-in-production-0000",
  /** Ed25519 seed (32 bytes, base64) that signs audit checkpoints (lib/server/audit/signing-key.ts). */
  AUDIT_SIGNING_KEY: "RbM0Y9kwvV9n+BSsHpwSxKgYcr4ayosnYtl8yo57hHA=",
} as const;

export type SecretName = keyof typeof demoSecrets;
export const requiredSecrets = Object.keys(demoSecrets) as SecretName[];
/** Minimum length of a production secret (32 random bytes in base64 are 44 characters). */
export const MIN_SECRET_LENGTH = 32;

/** The problems with the secrets in `env` for a production start; empty when they are fine. */
export function productionSecretProblems(env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  for (const name of requiredSecrets) {
    const value = env[name];
    if (!value) problems.push(`${name} is not set`);
    else if (value === demoSecrets[name]) problems.push(`${name} is the public demo value`);
    else if (value.length < MIN_SECRET_LENGTH) problems.push(`${name} is shorter than ${MIN_SECRET_LENGTH} characters`);
    else if (name === "AUDIT_SIGNING_KEY" && Buffer.from(value, "base64").length !== 32) problems.push(`${name} is not a 32-byte Ed25519 seed in base64`);
  }
  return problems;
}
