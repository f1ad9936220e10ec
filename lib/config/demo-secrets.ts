// Secrets of the demo. They are generated once per install (random, kept in .data/demo-secrets.json,
// readable by the owner only), so no two machines share them and nobody can forge a session cookie
// or an audit fingerprint from values published in this repository.
// The values earlier versions shipped publicly are refused everywhere: production refuses them as
// secrets, and the demo never uses them.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { secretsKeyFormatProblem } from "../domain/secret-box";

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

/**
 * The key that encrypts tenants' provider credentials at rest (lib/domain/secret-box.ts). Generated for the
 * demo like the others; optional in production (without it no tenant can store a provider connection, and
 * the process-wide PAYMENT_PROVIDER_* settings are every tenant's connection), checked when set.
 */
export const SECRETS_KEY = "SECRETS_KEY";

export type DemoSecrets = Record<SecretName, string> & { SECRETS_KEY: string };

/** Where the demo keeps its generated secrets (DEMO_SECRETS_FILE, else .data/demo-secrets.json). */
export function demoSecretsFile(env: Record<string, string | undefined> = process.env): string {
  return env.DEMO_SECRETS_FILE || join(process.cwd(), ".data", "demo-secrets.json");
}

function generate(): DemoSecrets {
  return {
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    AUDIT_HMAC_KEY: randomBytes(32).toString("base64url"),
    AUDIT_SIGNING_KEY: randomBytes(32).toString("base64"),
    SECRETS_KEY: randomBytes(32).toString("base64"),
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
  const added: string[] = requiredSecrets.filter(
    (name) => record[name] === undefined && requiredSecrets.some((other) => record[other] !== undefined),
  );
  if (record[SECRETS_KEY] === undefined && requiredSecrets.some((other) => record[other] !== undefined))
    added.push(SECRETS_KEY);
  if (added.length) {
    const fresh = generate();
    for (const name of added) record[name] = fresh[name as keyof DemoSecrets];
    writeFileSync(file, JSON.stringify(record, null, 2) + "\n", { mode: 0o600 });
  }
  const problems: string[] = requiredSecrets.filter((name) => !usable(record[name], name));
  if (typeof record[SECRETS_KEY] !== "string" || secretsKeyFormatProblem(record[SECRETS_KEY]))
    problems.push(SECRETS_KEY);
  if (problems.length)
    throw new Error(
      `${file}: ${problems.join(", ")} missing, too short or public; delete the file to generate new demo secrets`,
    );
  return {
    ...(Object.fromEntries(requiredSecrets.map((name) => [name, record[name] as string])) as Record<
      SecretName,
      string
    >),
    SECRETS_KEY: record[SECRETS_KEY] as string,
  };
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

/** Bits of entropy a production secret must show at least (32 random bytes carry 256). */
export const MIN_SECRET_BITS = 128;
/** Fewest distinct characters a production secret may use (random hex has 16, base64 up to 64). */
export const MIN_SECRET_ALPHABET = 10;
/**
 * Longest run of one character a production secret may hold. Random hex of 64 characters has a run of 6 about
 * once in 16,000 values, so a limit of 5 refused the runbook's own secrets now and then; a run of 10 happens about
 * once in a billion, and a hand-made value padded with one key held down still has one.
 */
export const MAX_SECRET_RUN = 9;

/**
 * Why a value cannot be a secret although it is long enough: a long run of one character, a short repeated
 * pattern, a short alphabet, or too little entropy measured over its characters (Shannon entropy per character
 * × length, an upper bound for anything typed by hand). Null when none of these holds. A value produced by
 * `openssl rand -base64 32` or `-hex 32` always passes.
 */
export function lowEntropyReason(value: string): string | null {
  const chars = [...value];
  let run = 1;
  let longest = 1;
  for (let i = 1; i < chars.length; i++) {
    run = chars[i] === chars[i - 1] ? run + 1 : 1;
    longest = Math.max(longest, run);
  }
  if (longest > MAX_SECRET_RUN) return `repeats one character ${longest} times in a row`;
  for (let period = 1; period <= chars.length / 2; period++) {
    if (chars.every((c, i) => c === chars[i % period])) return `repeats a pattern of ${period} characters`;
  }
  const counts = new Map<string, number>();
  for (const c of chars) counts.set(c, (counts.get(c) ?? 0) + 1);
  if (counts.size < MIN_SECRET_ALPHABET)
    return `uses only ${counts.size} distinct characters (at least ${MIN_SECRET_ALPHABET})`;
  let perChar = 0;
  for (const n of counts.values()) perChar -= (n / chars.length) * Math.log2(n / chars.length);
  const bits = Math.floor(perChar * chars.length);
  if (bits < MIN_SECRET_BITS) return `has about ${bits} bits of entropy (at least ${MIN_SECRET_BITS})`;
  return null;
}

/** Secrets that may carry an earlier value during a rotation overlap (docs/operations.md "Keys and rotation"). */
export const previousSecrets = ["NEXTAUTH_SECRET_PREVIOUS", "AUDIT_HMAC_KEY_PREVIOUS"] as const;

function secretProblem(name: string, value: string, publicValue?: string): string | null {
  if (value === publicValue) return `${name} is the public demo value`;
  if (value.length < MIN_SECRET_LENGTH) return `${name} is shorter than ${MIN_SECRET_LENGTH} characters`;
  const weak = lowEntropyReason(value);
  return weak ? `${name} is not random enough: it ${weak} (generate one with \`openssl rand -base64 32\`)` : null;
}

/** The problems with the secrets in `env` for a production start; empty when they are fine. */
export function productionSecretProblems(env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  for (const name of requiredSecrets) {
    const value = env[name];
    const problem = value ? secretProblem(name, value, publicDemoSecrets[name]) : `${name} is not set`;
    if (problem) problems.push(problem);
    else if (name === "AUDIT_SIGNING_KEY" && Buffer.from(value!, "base64").length !== 32)
      problems.push(`${name} is not a 32-byte Ed25519 seed in base64`);
  }
  // A previous value is optional; when set it is held to the same rules, and it must differ from the current one.
  for (const name of previousSecrets) {
    const value = env[name];
    if (!value) continue;
    const current = name.replace(/_PREVIOUS$/, "") as SecretName;
    const problem = secretProblem(name, value, publicDemoSecrets[current]);
    if (problem) problems.push(problem);
    else if (value === env[current]) problems.push(`${name} is the same as ${current}`);
  }
  // SECRETS_KEY is optional (see SECRETS_KEY above); when set, it and its previous value are 32 random bytes.
  for (const name of [SECRETS_KEY, `${SECRETS_KEY}_PREVIOUS`]) {
    const value = env[name];
    if (!value) continue;
    const format = secretsKeyFormatProblem(value);
    const weak = format ? null : lowEntropyReason(value.trim());
    if (format) problems.push(`${name} ${format}`);
    else if (weak)
      problems.push(`${name} is not random enough: it ${weak} (generate one with \`openssl rand -base64 32\`)`);
  }
  if (env[`${SECRETS_KEY}_PREVIOUS`] && env[`${SECRETS_KEY}_PREVIOUS`] === env[SECRETS_KEY])
    problems.push(`${SECRETS_KEY}_PREVIOUS is the same as ${SECRETS_KEY}`);
  return problems;
}
