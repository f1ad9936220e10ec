// Secrets of the demo. They are generated once per install (random, kept in .data/demo-secrets.json,
// readable by the owner only), so no two machines share them and nobody can forge a session cookie
// or an audit fingerprint from values published in this repository.
// The values earlier versions shipped publicly are refused everywhere: production refuses them as
// secrets, and the demo never uses them.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The public values earlier versions of the demo used. Known to everyone: never a secret. */
export const publicDemoSecrets = {
  NEXTAUTH_SECRET: "demo-only-nextauth-secret-do-not-use-in-production-0000",
  AUDIT_HMAC_KEY: "demo-only-audit-hmac-key-do-not-use-in-production-0000",
  /** Ed25519 seed (32 bytes, base64) that signs audit checkpoints (lib/server/audit/signing-key.ts). */
  AUDIT_SIGNING_KEY: "RbM0Y9kwvV9n+BSsHpwSxKgYcr4ayosnYtl8yo57hHA=",
} as const;

export type SecretName = keyof typeof publicDemoSecrets;
export const requiredSecrets = Object.keys(publicDemoSecrets) as SecretName[];
/** Minimum length of a production secret (32 random bytes in base64 are 44 characters). */
export const MIN_SECRET_LENGTH = 32;

export type DemoSecrets = Record<SecretName, string>;

/** Where the demo keeps its generated secrets (DEMO_SECRETS_FILE, else .data/demo-secrets.json). */
export function demoSecretsFile(env: Record<string, string | undefined> = process.env): string {
  return env.DEMO_SECRETS_FILE || join(process.cwd(), ".data", "demo-secrets.json");
}

function generate(): DemoSecrets {
  return {
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    AUDIT_HMAC_KEY: randomBytes(32).toString("base64url"),
    AUDIT_SIGNING_KEY: randomBytes(32).toString("base64"),
  };
}

function usable(value: unknown, name: SecretName): value is string {
  return typeof value === "string" && value.length >= MIN_SECRET_LENGTH && value !== publicDemoSecrets[name];
}

function read(file: string): DemoSecrets | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new Error(`${file} is not readable JSON; delete it to generate new demo secrets`, { cause: error });
  }
  const record = (parsed ?? {}) as Record<string, unknown>;
  // A secret added by a later version (AUDIT_SIGNING_KEY) is generated into an older install's file.
  const added = requiredSecrets.filter((name) => record[name] === undefined && requiredSecrets.some((other) => record[other] !== undefined));
  if (added.length) {
    const fresh = generate();
    for (const name of added) record[name] = fresh[name];
    writeFileSync(file, JSON.stringify(record, null, 2) + "\n", { mode: 0o600 });
  }
  const problems = requiredSecrets.filter((name) => !usable(record[name], name));
  if (problems.length) throw new Error(`${file}: ${problems.join(", ")} missing, too short or public; delete the file to generate new demo secrets`);
  return Object.fromEntries(requiredSecrets.map((name) => [name, record[name] as string])) as DemoSecrets;
}

const cache = new Map<string, DemoSecrets>();

/**
 * This install's demo secrets: read from `file`, or generated and written there on first use. Several
 * processes may start together (app, worker, test files): the file is created exclusively, and whoever
 * loses the race reads the winner's.
 */
export function loadDemoSecrets(file: string = demoSecretsFile()): DemoSecrets {
  const cached = cache.get(file);
  if (cached) return cached;
  let secrets = read(file);
  if (!secrets) {
    mkdirSync(dirname(file), { recursive: true });
    try {
      writeFileSync(file, JSON.stringify(generate(), null, 2) + "\n", { flag: "wx", mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    secrets = read(file);
    if (!secrets) throw new Error(`${file} vanished while the demo secrets were being created`);
  }
  cache.set(file, secrets);
  return secrets;
}

/** The problems with the secrets in `env` for a production start; empty when they are fine. */
export function productionSecretProblems(env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  for (const name of requiredSecrets) {
    const value = env[name];
    if (!value) problems.push(`${name} is not set`);
    else if (value === publicDemoSecrets[name]) problems.push(`${name} is the public demo value`);
    else if (value.length < MIN_SECRET_LENGTH) problems.push(`${name} is shorter than ${MIN_SECRET_LENGTH} characters`);
    else if (name === "AUDIT_SIGNING_KEY" && Buffer.from(value, "base64").length !== 32) problems.push(`${name} is not a 32-byte Ed25519 seed in base64`);
  }
  return problems;
}
