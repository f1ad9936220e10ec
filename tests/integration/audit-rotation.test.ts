// The audit signing key rotated the product's way (docs/audit.md "Rotating the signing key") under two real
// witnesses with quorum 2: evidence packs made before, during and after the rotation each carry a cosigned
// checkpoint and every one of them still verifies through `npm run evidence:verify` with the published key
// list and the auditor's pinned policy; `audit:verify` and /api/health say "signed by retired key K (valid …)"
// for what K signed in its period — and a checkpoint K signs after its retirement is reported as a failure.
// Also: the policy file decides — a short quorum or a cosignature of a witness it does not list fails.
import { spawnSync } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { secret } from "@/lib/server/env";
import { integratePending } from "@/lib/server/audit/sequencer";
import { submitToWitnesses } from "@/lib/server/audit/submit-to-witnesses";
import { buildEvidencePack } from "@/lib/server/audit/build-evidence-pack";
import { auditPublicKeys, auditVkey } from "@/lib/server/audit/signing-key";
import { checkHealth } from "@/lib/server/health/check-health";
import { keyIdOf, rawPublicKey } from "@/lib/domain/audit-log";
import { SIG_COSIGNATURE_V1, ed25519FromSeed, parseNote, vkeyOf } from "@/lib/domain/signed-note";
import { formatWitnessPolicy } from "@/lib/domain/witness-policy";
import { GET as publicKeysGET } from "@/app/api/audit/public-keys/route";
import { ES, ana } from "./gateway-support";
import { actorOf, preparedProposal } from "./audit-support";
import { startWitness, type RunningWitness } from "../support/witness";

process.env.AUDIT_SIGNER_STATE_DIR = mkdtempSync(join(tmpdir(), "audit-signer-"));
const dir = mkdtempSync(join(tmpdir(), "rotation-"));
const publicOf = (seed: string) => ed25519FromSeed(Buffer.from(seed, "base64")).publicKey;

const oldSeed = secret("AUDIT_SIGNING_KEY");
const nextSeed = randomBytes(32).toString("base64");
const oldId = keyIdOf(publicOf(oldSeed));
const newId = keyIdOf(publicOf(nextSeed));

const witnesses: RunningWitness[] = [];

let es = "";
/** A new proposal of the tenant, integrated and witnessed, and its evidence pack as an auditor downloads it. */
async function pack(label: string): Promise<{ file: string; body: string }> {
  const { proposal } = await preparedProposal(ana);
  await integratePending();
  expect(await submitToWitnesses(es)).toEqual({ cosigned: 2, failed: 0 });
  const { body } = await buildEvidencePack(await actorOf(ES, "auditor"), proposal.id);
  const file = join(dir, `${label}.json`);
  writeFileSync(file, body);
  return { file, body };
}
const logLines = (body: string) =>
  parseNote((JSON.parse(body) as { cosignedCheckpoint: string }).cosignedCheckpoint).signatures.filter(
    (s) => s.name === "localhost:3000/audit",
  );

const script = (
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv = { NODE_ENV: "test", PATH: process.env.PATH },
) => {
  const r = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", `scripts/${name}`, ...args], {
    env,
    encoding: "utf8",
    timeout: 90_000,
  });
  return { code: r.status, out: r.stdout + r.stderr };
};
const evidenceVerify = (file: string, ...args: string[]) => script("evidence-verify.ts", [file, ...args]);
const policyFile = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};
const keysFile = async () => {
  const f = join(dir, `keys-${Date.now()}.json`);
  writeFileSync(
    f,
    await (await publicKeysGET(new Request("http://localhost:3000/api/audit/public-keys"), undefined)).text(),
  );
  return f;
};

let policy = "";
const packs: { label: string; file: string; body: string }[] = [];
let switchedAt = "";

beforeAll(async () => {
  es = (await db().tenant.findUniqueOrThrow({ where: { slug: ES } })).id;
  // The next key is published before it signs, so the witnesses trust it from the start.
  process.env.AUDIT_SIGNING_KEY_NEXT = nextSeed;
  const nextVkey = auditPublicKeys().find((k) => k.status === "next")!.vkey;
  delete process.env.AUDIT_SIGNING_KEY_NEXT;
  for (const name of ["w1.example", "w2.example"])
    witnesses.push(await startWitness(name, dir, [auditVkey(), nextVkey]));
  for (const w of witnesses)
    await db().auditWitness.create({ data: { tenantId: es, name: w.name, vkey: w.vkey, url: w.url } });
  await db().tenant.update({ where: { id: es }, data: { witnessQuorum: 2 } });
  policy = policyFile("policy.txt", formatWitnessPolicy(witnesses, 2, "pinned by the auditor"));
}, 60_000);
afterAll(() => {
  for (const w of witnesses) w.child.kill("SIGTERM");
  for (const k of ["AUDIT_SIGNING_KEY_NEXT", "AUDIT_SIGNING_KEY_NEXT_FROM", "AUDIT_SIGNING_KEYS_RETIRED"])
    delete process.env[k];
  process.env.AUDIT_SIGNING_KEY = oldSeed;
});

describe("evidence packs carry the cosigned checkpoint; the pinned policy decides", () => {
  it("a pack verifies with the policy (quorum 2 met), and without one says the quorum was not checked", async () => {
    const a = await pack("before");
    packs.push({ label: "before", ...a });
    const keys = await keysFile();
    const ok = evidenceVerify(a.file, "--public-key", keys, "--policy", policy);
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toContain("ok   witness quorum — cosigned by w1.example, w2.example (quorum 2)");
    expect(ok.out).toContain("evidence pack VERIFIED\n");
    const none = evidenceVerify(a.file, "--public-key", keys);
    expect(none.code, none.out).toBe(0);
    expect(none.out).toContain("skip witness quorum — not checked: no pinned witness policy given (--policy FILE)");
    expect(none.out).toContain("evidence pack VERIFIED (not checked: witness quorum)");
  });

  it("a policy whose quorum the pack does not reach, or that does not list a cosigner, fails with exit 1; a bad policy file is a usage error", async () => {
    const [w1, w2] = witnesses;
    const { file } = packs[0]!;
    const keys = await keysFile();
    const third = vkeyOf("w3.example", SIG_COSIGNATURE_V1, generateKeyPairSync("ed25519").publicKey);
    const short = evidenceVerify(
      file,
      "--public-key",
      keys,
      "--policy",
      policyFile("p3.txt", formatWitnessPolicy([w1!, w2!, { vkey: third }], 3)),
    );
    expect(short.code, short.out).toBe(1);
    expect(short.out).toContain(
      "FAIL witness quorum — 2 of the 3 witness cosignatures the policy requires (w1.example, w2.example)",
    );
    const unknown = evidenceVerify(
      file,
      "--public-key",
      keys,
      "--policy",
      policyFile("p1.txt", formatWitnessPolicy([w1!], 1)),
    );
    expect(unknown.code, unknown.out).toBe(1);
    expect(unknown.out).toMatch(
      /FAIL witness quorum — unknown cosignature by w2\.example \(key id [0-9a-f]{8}\): not a witness of the pinned policy/,
    );
    const bad = evidenceVerify(
      file,
      "--public-key",
      keys,
      "--policy",
      policyFile("bad.txt", `witness ${w1!.vkey}\nquorum 2\n`),
    );
    expect(bad.code).toBe(2);
    expect(bad.out).toContain("quorum 2 is more than the 1 witness(es) listed");
  });
});

describe("rotating the signing key over older evidence packs", () => {
  it("published first: listed as next, signs nothing; overlap: checkpoints carry both keys' signature lines", async () => {
    process.env.AUDIT_SIGNING_KEY_NEXT = nextSeed;
    expect(auditPublicKeys().map((k) => [k.keyId, k.status])).toEqual([
      [oldId, "current"],
      [newId, "next"],
    ]);
    const published = await pack("published");
    packs.push({ label: "published", ...published });
    expect(logLines(published.body)).toHaveLength(1);

    process.env.AUDIT_SIGNING_KEY_NEXT_FROM = new Date(Date.now() - 1000).toISOString();
    const overlap = await pack("overlap");
    packs.push({ label: "overlap", ...overlap });
    expect(logLines(overlap.body)).toHaveLength(2);
    expect((JSON.parse(overlap.body) as { checkpoint: { keyId: string } }).checkpoint.keyId).toBe(oldId);
  });

  it("switched: the old key retired with its validity; new packs are signed by the new key; every older pack still verifies", async () => {
    switchedAt = new Date().toISOString();
    process.env.AUDIT_SIGNING_KEY = nextSeed;
    delete process.env.AUDIT_SIGNING_KEY_NEXT;
    delete process.env.AUDIT_SIGNING_KEY_NEXT_FROM;
    process.env.AUDIT_SIGNING_KEYS_RETIRED = JSON.stringify([
      {
        publicKey: rawPublicKey(publicOf(oldSeed)).toString("base64"),
        validFrom: "2020-01-01T00:00:00.000Z",
        validUntil: switchedAt,
      },
    ]);
    const after = await pack("after");
    packs.push({ label: "after", ...after });
    expect((JSON.parse(after.body) as { checkpoint: { keyId: string } }).checkpoint.keyId).toBe(newId);

    const keys = await keysFile();
    for (const p of packs) {
      const r = evidenceVerify(p.file, "--public-key", keys, "--policy", policy);
      expect(r.code, `${p.label}: ${r.out}`).toBe(0);
      if (p.label === "after") expect(r.out).not.toContain("retired key");
      else
        expect(r.out, p.label).toContain(
          `ok   checkpoint signature — signed by retired key ${oldId} (valid 2020-01-01T00:00:00.000Z – ${switchedAt})`,
        );
    }
    // Only the new key (no list of retired keys): the older packs do not verify — the list is what carries them.
    const newOnly = evidenceVerify(packs[0]!.file, "--public-key", rawPublicKey(publicOf(nextSeed)).toString("base64"));
    expect(newOnly.code).toBe(1);
    expect(newOnly.out).toContain("FAIL checkpoint signature — the checkpoint is not signed by the audit key");
  });

  it("audit:verify and health say 'signed by retired key K (valid …)' — never tampered", async () => {
    const r = script("audit-verify.ts", [], { ...process.env });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(`audit log OK`);
    expect(r.out).toContain(`signed by retired key ${oldId} (valid 2020-01-01T00:00:00.000Z – ${switchedAt})`);
    const health = await checkHealth();
    expect(health.checks.auditChain).toBe("ok");
    expect(health.checks.auditSignedByRetired).toEqual([
      `signed by retired key ${oldId} (valid 2020-01-01T00:00:00.000Z – ${switchedAt})`,
    ]);
  });

  it("the retired key signing after its retirement is a failure: audit:verify BROKEN, health broken, a pack of that checkpoint fails", async () => {
    // Whoever kept the old key signs with it again.
    process.env.AUDIT_SIGNING_KEY = oldSeed;
    const { proposal } = await preparedProposal(ana);
    await integratePending();
    const { body } = await buildEvidencePack(await actorOf(ES, "auditor"), proposal.id);
    process.env.AUDIT_SIGNING_KEY = nextSeed;
    const late = (JSON.parse(body) as { checkpoint: { keyId: string; issuedAt: string; treeSize: number } }).checkpoint;
    expect(late.keyId).toBe(oldId);
    const file = join(dir, "late.json");
    writeFileSync(file, body);
    const v = evidenceVerify(file, "--public-key", await keysFile());
    expect(v.code, v.out).toBe(1);
    expect(v.out).toContain(
      `FAIL checkpoint signature — the checkpoint is signed by retired key ${oldId} (valid 2020-01-01T00:00:00.000Z – ${switchedAt}) outside its validity (issued ${late.issuedAt})`,
    );

    const r = script("audit-verify.ts", [], { ...process.env });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain(
      `signed by retired key ${oldId} (valid 2020-01-01T00:00:00.000Z – ${switchedAt}) outside its validity`,
    );
    const health = await checkHealth();
    expect(health.checks.auditChain).toBe("broken");
    expect(health.checks.auditSignedByRetired).toBeUndefined();
    expect(health.status).toBe("degraded");
  });
});
