// v3 evidence packs carry the cosigned C2SP checkpoint; the offline verifier checks it is the pack's
// checkpoint, signed by the log key, and — with the auditor's pinned policy — cosigned by a quorum of the
// policy's witnesses with no unknown or forged line. Without a policy it says the quorum was not checked.
// And a rotated key: a pack signed by a retired key within its validity verifies and says so; outside, fails.
import { generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalProposalJson } from "./proposal-hash";
import {
  auditLeafHash,
  checkpointNote,
  keyIdOf,
  keysFromPublished,
  rawPublicKey,
  type RetiredKey,
  type SignedCheckpoint,
} from "./audit-log";
import { inclusionProof, leafHash, merkleRoot, type Hex } from "./merkle";
import { SIG_COSIGNATURE_V1, checkpointText, cosign, parseVkey, signNote, vkeyOf } from "./signed-note";
import {
  EVIDENCE_PACK_FORMAT,
  serializeEvidencePack,
  verifyEvidencePack,
  type EvidencePack,
  type EvidenceVerifyOptions,
} from "./evidence-pack";
import { formatWitnessPolicy, parseWitnessPolicy } from "./witness-policy";
import { packProposal, packProposalHash, packTenantId } from "../../tests/support/evidence-pack-fixture";

const tenantId = packTenantId;
const proposal = packProposal;
const hash = packProposalHash;
const log = generateKeyPairSync("ed25519");
const oldLog = generateKeyPairSync("ed25519");
const w = [1, 2, 3].map((i) => ({ name: `w${i}.example`, ...generateKeyPairSync("ed25519") }));
const vkeyOfW = (x: (typeof w)[number]) => vkeyOf(x.name, SIG_COSIGNATURE_V1, x.publicKey);
const KEY_NAME = "gw.example/audit";

type Draft = Omit<EvidencePack, "packDigest">;

/** A one-event pack whose checkpoint (size 6) is signed by `signer` at `issuedAt`, its note cosigned by `cosigners`. */
function pack(
  opts: { signer?: typeof log; issuedAt?: string; cosigners?: typeof w; extraLines?: string; origin?: string } = {},
): Draft {
  const signer = opts.signer ?? log;
  const content = {
    id: "e0",
    tenantId,
    occurredAt: new Date("2026-01-01T00:00:00.000Z"),
    traceId: "tr",
    actorType: "agent",
    actorId: "key",
    authMethod: null,
    action: "tool:prepare_refund",
    outcome: "approval_required",
    proposalId: proposal.id,
    proposalHash: hash,
    model: null,
    promptVersion: null,
    channel: null,
    endUser: null,
    data: {},
    fingerprints: [],
  };
  const leaves: Hex[] = Array.from({ length: 6 }, (_, i) => leafHash(`other-${i}`));
  leaves[2] = auditLeafHash(content);
  const get = (level: number, index: number) => merkleRoot(leaves.slice(index * 2 ** level, (index + 1) * 2 ** level));
  const cp = {
    logId: tenantId,
    treeSize: 6,
    rootHash: merkleRoot(leaves),
    issuedAt: opts.issuedAt ?? "2026-01-01T00:01:00.000Z",
  };
  const checkpoint: SignedCheckpoint = {
    ...cp,
    keyId: keyIdOf(signer.publicKey),
    signature: sign(null, Buffer.from(checkpointNote(cp)), signer.privateKey).toString("base64"),
  };
  const text = checkpointText({ origin: opts.origin ?? `${KEY_NAME}/${tenantId}`, treeSize: 6, rootHash: cp.rootHash });
  const lines = (opts.cosigners ?? w.slice(0, 2)).map((x) =>
    cosign(text, x.name, x.privateKey, x.publicKey, 1_767_225_700),
  );
  const note = `${text}\n${signNote(text, KEY_NAME, signer.privateKey, signer.publicKey)}${lines.join("")}${opts.extraLines ?? ""}`;
  return {
    format: EVIDENCE_PACK_FORMAT,
    generatedAt: "2026-01-02T00:00:00.000Z",
    tenant: { id: tenantId, slug: "t" },
    relyingParty: { rpID: "localhost", origin: "http://localhost:3000" },
    proposal: {
      id: proposal.id,
      traceId: "tr",
      status: "pending_approval",
      hash,
      canonicalJson: canonicalProposalJson(proposal),
      createdAt: "2026-01-01T00:00:00.000Z",
    },
    approvals: [],
    execution: null,
    refunds: [],
    events: [
      {
        ...content,
        occurredAt: content.occurredAt.toISOString(),
        hash: leaves[2],
        leafIndex: 2,
        inclusionProof: inclusionProof(2, 6, get),
      },
    ],
    checkpoint,
    cosignedCheckpoint: note,
  };
}

const policy2of3 = parseWitnessPolicy(
  formatWitnessPolicy(
    w.map((x) => ({ vkey: vkeyOfW(x) })),
    2,
  ),
);
const verify = (p: Draft, opts: EvidenceVerifyOptions = { publicKey: log.publicKey }) =>
  verifyEvidencePack(serializeEvidencePack(p), opts);
const failed = async (p: Draft, opts?: EvidenceVerifyOptions) => (await verify(p, opts)).checks.filter((c) => !c.ok);
const entry = async (p: Draft, name: string, opts?: EvidenceVerifyOptions) =>
  (await verify(p, opts)).checks.find((c) => c.name === name);

describe("v3 pack: the cosigned checkpoint and the pinned policy", () => {
  it("with a policy whose quorum is met: verified, naming the cosigners", async () => {
    const v = await verify(pack(), { publicKey: log.publicKey, policy: policy2of3 });
    expect(v.ok).toBe(true);
    expect(v.checks).toEqual(
      expect.arrayContaining([
        {
          name: "cosigned checkpoint",
          ok: true,
          detail: "its origin, size and root must be those of the pack's checkpoint and tenant",
        },
        {
          name: "cosigned checkpoint log signature",
          ok: true,
          detail: "a signature line of the log key (valid when the checkpoint was issued)",
        },
        { name: "witness quorum", ok: true, info: "cosigned by w1.example, w2.example (quorum 2)" },
      ]),
    );
  });

  it("without a policy: verified, and says the quorum was not checked", async () => {
    const v = await verify(pack({ cosigners: [] }));
    expect(v.ok).toBe(true);
    expect(v.checks.find((c) => c.name === "witness quorum")).toEqual({
      name: "witness quorum",
      ok: true,
      skipped: true,
      detail: "not checked: no pinned witness policy given (--policy FILE)",
    });
  });

  it("one cosignature short of the quorum fails; exactly the quorum passes", async () => {
    expect(await failed(pack({ cosigners: w.slice(0, 1) }), { publicKey: log.publicKey, policy: policy2of3 })).toEqual([
      { name: "witness quorum", ok: false, detail: "1 of the 2 witness cosignatures the policy requires (w1.example)" },
    ]);
    expect(
      (await verify(pack({ cosigners: [w[0]!, w[2]!] }), { publicKey: log.publicKey, policy: policy2of3 })).ok,
    ).toBe(true);
  });

  it("an unknown cosignature (a witness not in the policy) fails, even when the quorum is met", async () => {
    const stranger = { name: "stranger.example", ...generateKeyPairSync("ed25519") };
    const p = pack({ cosigners: [...w.slice(0, 2), stranger] });
    expect((await entry(p, "witness quorum", { publicKey: log.publicKey, policy: policy2of3 }))?.detail).toMatch(
      /^unknown cosignature by stranger\.example \(key id [0-9a-f]{8}\): not a witness of the pinned policy$/,
    );
    // A policy witness's name with another key is unknown too.
    const impostor = { ...generateKeyPairSync("ed25519"), name: "w3.example" };
    expect(
      (
        await entry(pack({ cosigners: [...w.slice(0, 2), impostor] }), "witness quorum", {
          publicKey: log.publicKey,
          policy: policy2of3,
        })
      )?.ok,
    ).toBe(false);
  });

  it("a forged cosignature (right name and key id, wrong signature) fails", async () => {
    const p = pack();
    const lines = p.cosignedCheckpoint!.split("\n");
    const i = lines.findIndex((l) => l.startsWith("\u2014 w2.example "));
    const b = Buffer.from(lines[i]!.split(" ")[2]!, "base64");
    b[b.length - 1] = b[b.length - 1]! ^ 1;
    lines[i] = `\u2014 w2.example ${b.toString("base64")}`;
    expect(
      await failed({ ...p, cosignedCheckpoint: lines.join("\n") }, { publicKey: log.publicKey, policy: policy2of3 }),
    ).toEqual([
      {
        name: "witness quorum",
        ok: false,
        detail: "the cosignature of w2.example does not verify (forged or altered)",
      },
    ]);
  });

  it("a note of another size, root or log than the pack's checkpoint fails; a v3 pack without a note fails", async () => {
    expect(
      (await failed(pack({ origin: `${KEY_NAME}/00000000-0000-4000-8000-000000000002` }))).map((c) => c.name),
    ).toEqual(["cosigned checkpoint"]);
    const p = pack();
    const other = pack({ issuedAt: "2026-01-01T00:02:00.000Z" });
    expect(
      (await failed({ ...p, cosignedCheckpoint: other.cosignedCheckpoint!.replace("\n6\n", "\n7\n") })).map(
        (c) => c.name,
      ),
    ).toEqual(["cosigned checkpoint"]);
    expect((await failed({ ...p, cosignedCheckpoint: null })).map((c) => c.name)).toEqual(["cosigned checkpoint"]);
  });

  it("the note's log signature must be the log key's", async () => {
    const p = pack();
    const stranger = generateKeyPairSync("ed25519");
    const forged = pack({ signer: stranger }).cosignedCheckpoint!;
    expect((await failed({ ...p, cosignedCheckpoint: forged })).map((c) => c.name)).toEqual([
      "cosigned checkpoint log signature",
    ]);
  });
});

describe("a rotated key: packs signed by a retired key", () => {
  const retired = (validUntil: string): RetiredKey[] => [
    { key: oldLog.publicKey, validFrom: "2025-01-01T00:00:00.000Z", validUntil },
  ];
  it("within its validity: verified, and the verdict says which retired key and its period", async () => {
    const p = pack({ signer: oldLog, issuedAt: "2026-01-01T00:01:00.000Z" });
    const v = await verify(p, {
      publicKey: log.publicKey,
      retiredKeys: retired("2026-01-01T00:01:00.000Z"),
      policy: policy2of3,
    });
    expect(v.ok).toBe(true);
    expect(v.checks.find((c) => c.name === "checkpoint signature")?.info).toBe(
      `signed by retired key ${keyIdOf(oldLog.publicKey)} (valid 2025-01-01T00:00:00.000Z – 2026-01-01T00:01:00.000Z)`,
    );
  });
  it("signed after its retirement: fails, naming the key and its period (not 'tampered')", async () => {
    const p = pack({ signer: oldLog, issuedAt: "2026-01-01T00:01:00.001Z" });
    const bad = await failed(p, { publicKey: log.publicKey, retiredKeys: retired("2026-01-01T00:01:00.000Z") });
    expect(bad.map((c) => c.name)).toEqual(["checkpoint signature", "cosigned checkpoint log signature"]);
    expect(bad[0]!.detail).toBe(
      `the checkpoint is signed by retired key ${keyIdOf(oldLog.publicKey)} (valid 2025-01-01T00:00:00.000Z – 2026-01-01T00:01:00.000Z) outside its validity (issued 2026-01-01T00:01:00.001Z)`,
    );
  });
  it("a retired key the verifier was not given: not signed by the audit key", async () => {
    const p = pack({ signer: oldLog });
    expect((await failed(p))[0]).toMatchObject({
      name: "checkpoint signature",
      detail: "the checkpoint is not signed by the audit key",
    });
  });
});

describe("the policy file", () => {
  it("parses witness lines and the quorum, skipping comments and blank lines", () => {
    const text = `# pinned 2026-12-01\n\nwitness ${vkeyOfW(w[0]!)}\nwitness ${vkeyOfW(w[1]!)}\nquorum 2\n`;
    const p = parseWitnessPolicy(text);
    expect(p.quorum).toBe(2);
    expect(p.witnesses.map((k) => k.name)).toEqual(["w1.example", "w2.example"]);
    expect(formatWitnessPolicy([{ vkey: vkeyOfW(w[0]!) }], 1, "c")).toBe(`# c\nwitness ${vkeyOfW(w[0]!)}\nquorum 1\n`);
  });
  it("refuses a quorum above the witnesses (at the boundary), no quorum, two quorums, a log key, a duplicate, junk", () => {
    const a = `witness ${vkeyOfW(w[0]!)}\n`;
    expect(parseWitnessPolicy(`${a}quorum 1`).quorum).toBe(1);
    expect(() => parseWitnessPolicy(`${a}quorum 2`)).toThrow("quorum 2 is more than the 1 witness(es) listed");
    expect(() => parseWitnessPolicy(a)).toThrow("the policy has no quorum line");
    expect(() => parseWitnessPolicy(`${a}quorum 1\nquorum 1`)).toThrow("policy line 3: quorum is given twice");
    expect(() => parseWitnessPolicy(`witness ${vkeyOf("gw/audit", 1, log.publicKey)}\nquorum 0`)).toThrow(
      "policy line 1: a witness key is a cosignature/v1 vkey (type 0x04)",
    );
    expect(() => parseWitnessPolicy(`${a}${a}quorum 1`)).toThrow("policy line 2: witness w1.example is listed twice");
    expect(() => parseWitnessPolicy(`${a}quorum -1`)).toThrow("policy line 2: the quorum is a whole number");
    expect(() => parseWitnessPolicy(`log x\nquorum 0`)).toThrow('policy line 1: unknown keyword "log"');
    expect(() => parseWitnessPolicy(`witness x+00000000+AAAA\nquorum 0`)).toThrow(/^policy line 1: /);
    expect(parseVkey(vkeyOfW(w[0]!)).type).toBe(SIG_COSIGNATURE_V1);
  });
});

describe("the published key list (GET /api/audit/public-keys) as the verifier reads it", () => {
  const b64 = (k: typeof log) => rawPublicKey(k.publicKey).toString("base64");
  it("takes the current key and the retired keys with their validity; a next key signs nothing yet and is left out", () => {
    const next = generateKeyPairSync("ed25519");
    const r = keysFromPublished({
      keys: [
        { publicKey: b64(log), status: "current", validFrom: "2026-01-01T00:01:00.000Z", validUntil: null },
        { publicKey: b64(next), status: "next", validFrom: null, validUntil: null },
        {
          publicKey: b64(oldLog),
          status: "retired",
          validFrom: "2025-01-01T00:00:00.000Z",
          validUntil: "2026-01-01T00:01:00.000Z",
        },
      ],
    });
    expect(keyIdOf(r.current!)).toBe(keyIdOf(log.publicKey));
    expect(r.retired.map((k) => [keyIdOf(k.key), k.validFrom, k.validUntil])).toEqual([
      [keyIdOf(oldLog.publicKey), "2025-01-01T00:00:00.000Z", "2026-01-01T00:01:00.000Z"],
    ]);
  });
  it("refuses what is not such a list", () => {
    expect(() => keysFromPublished({ publicKey: b64(log) })).toThrow("not a published key list");
    expect(() => keysFromPublished({ keys: [{ status: "current" }] })).toThrow("a published key has a publicKey");
    expect(() => keysFromPublished({ keys: [{ publicKey: b64(oldLog), status: "retired" }] })).toThrow(
      "a retired key has validFrom and validUntil",
    );
  });
});
