// The evidence pack verifier binds a non-refund kind's execution to its proposal: the execution's idempotency key
// must be actionIdempotencyKey(<the hashed kind>, <proposal id>) — for an address change
// `change_shipping_address-<id>` — not the refund-shaped key, another proposal's key or any other string. Each pack
// here is forged consistently (leaf hashes, inclusion proofs, checkpoint signed with the log's key, digest), so the
// idempotency key is the only thing wrong with it and the verdict must name exactly that check; the same verdict
// comes out of `npm run evidence:verify` (scripts/evidence-verify.ts), which exits 1 and prints the failed check.
import { execFile } from "node:child_process";
import { generateKeyPairSync, sign } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { packProposal, packTenantId } from "../../tests/support/evidence-pack-fixture";
import { auditLeafHash, checkpointNote, keyIdOf, rawPublicKey, type SignedCheckpoint } from "./audit-log";
import { serializeEvidencePack, verifyEvidencePack, type EvidencePack, type PackEvent } from "./evidence-pack";
import { actionIdempotencyKey } from "./execution-state";
import { inclusionProof, leafHash, merkleRoot, type Hex } from "./merkle";
import { canonicalProposalJson, computeProposalHash, type KindHashInput } from "./proposal-hash";

type Draft = Omit<EvidencePack, "packDigest">;

const KIND = "change_shipping_address";
const tenantId = packTenantId;
const keys = generateKeyPairSync("ed25519");
const publicKey = rawPublicKey(keys.publicKey).toString("base64");

/** An address change as hash v5 binds it (the shape lib/actions/address-change/prepare.ts hashes). */
const address = (line1: string) => ({
  name: "Ana García",
  line1,
  line2: null,
  city: "Madrid",
  postalCode: "28014",
  region: null,
  country: "ES",
});
const change: KindHashInput = {
  v: 5,
  id: "44444444-4444-4444-8444-444444444444",
  tenantId,
  kind: KIND,
  tool: "prepare_address_change",
  subject: { type: "order", ref: "22222222-2222-4222-8222-222222222222" },
  params: {
    order: { number: "ORD-1001", customerName: "Ana García" },
    before: address("Calle Mayor 1"),
    after: address("Calle de Alcalá 50"),
    changed: ["line1"],
  },
  source: { orderStatus: "paid", fulfilment: "unfulfilled" },
  reason: "customer_request",
  expiresAt: new Date("2026-01-01T00:30:00.000Z"),
  requiredApprovals: 1,
  policyVersion: 1,
};
/** Another address change of the same shop: its key is a real key, of another proposal. */
const otherId = "55555555-5555-4555-8555-555555555555";

/** Places the events at leaves 5.. of a padded log and signs a checkpoint of it with the log's key. */
function seal(p: Draft): Draft {
  const size = 5 + p.events.length + 3;
  const leaves: Hex[] = Array.from({ length: size }, (_, i) => leafHash(`other-${i}`));
  const events = p.events.map((e, i) => {
    const h = auditLeafHash({ ...e, occurredAt: new Date(e.occurredAt) });
    leaves[5 + i] = h;
    return { ...e, hash: h, leafIndex: 5 + i };
  });
  const get = (level: number, index: number) => merkleRoot(leaves.slice(index * 2 ** level, (index + 1) * 2 ** level));
  const cp = { logId: tenantId, treeSize: size, rootHash: merkleRoot(leaves), issuedAt: "2026-01-01T00:01:00.000Z" };
  const checkpoint: SignedCheckpoint = {
    ...cp,
    keyId: keyIdOf(keys.publicKey),
    signature: sign(null, Buffer.from(checkpointNote(cp)), keys.privateKey).toString("base64"),
  };
  return {
    ...p,
    events: events.map((e) => ({ ...e, inclusionProof: inclusionProof(e.leafIndex, size, get) })),
    checkpoint,
  };
}

function event(i: number, proposal: { id: string; hash: string }, action: string, outcome: string, actorId: string) {
  const e: PackEvent = {
    id: `e${i}`,
    tenantId,
    occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    traceId: "tr",
    actorType: "staff",
    actorId,
    authMethod: null,
    action,
    outcome,
    proposalId: proposal.id,
    proposalHash: proposal.hash,
    model: null,
    promptVersion: null,
    channel: null,
    endUser: null,
    data: { n: i },
    fingerprints: [],
    hash: "",
    leafIndex: null,
    inclusionProof: null,
  };
  return e;
}

/** A sealed pack of an executed proposal whose execution carries `idempotencyKey`. */
function pack(
  hashed: Parameters<typeof canonicalProposalJson>[0],
  prepareTool: string,
  idempotencyKey: string,
  refund: boolean,
): Draft {
  const proposal = { id: hashed.id, hash: computeProposalHash(hashed) };
  return seal({
    format: "audit-evidence-pack/v2",
    generatedAt: "2026-01-02T00:00:00.000Z",
    tenant: { id: tenantId, slug: "t" },
    relyingParty: { rpID: "localhost", origin: "http://localhost:3000" },
    proposal: {
      ...proposal,
      traceId: "tr",
      status: "succeeded",
      canonicalJson: canonicalProposalJson(hashed),
      createdAt: "2026-01-01T00:00:00.000Z",
    },
    approvals: [
      {
        id: "ap1",
        approverId: "rev",
        authMethod: "password",
        authTime: "2026-01-01T00:00:00.000Z",
        proposalHash: proposal.hash,
        createdAt: "2026-01-01T00:00:12.000Z",
        passkey: null,
      },
    ],
    execution: {
      id: "ex1",
      status: "succeeded",
      idempotencyKey,
      providerRefundId: refund ? "re_1" : null,
      attempts: 1,
      reconciliations: 0,
      settledAt: null,
      ...(refund ? {} : { actionReference: "shop-act-1" }),
    },
    refunds: refund
      ? [{ id: "r1", status: "succeeded", providerRefundId: "re_1", amountMinor: 1234, currency: "EUR" }]
      : [],
    events: [
      event(0, proposal, `tool:${prepareTool}`, "approval_required", "key"),
      event(1, proposal, "proposal:approve", "ok", "rev"),
      event(2, proposal, "execution:send", "ok", "worker"),
    ],
    checkpoint: null,
  });
}

const changePack = (idempotencyKey: string) => pack(change, "prepare_address_change", idempotencyKey, false);
/** The refund of the shared fixture: hashes before kinds (v1–v4) name no kind, and are refunds. */
const refundPack = (idempotencyKey: string) => pack(packProposal, "prepare_refund", idempotencyKey, true);
const verify = (p: Draft) => verifyEvidencePack(serializeEvidencePack(p), { publicKey });
const failed = (v: { checks: { name: string; ok: boolean }[] }) => v.checks.filter((c) => !c.ok).map((c) => c.name);

describe("evidence pack of a non-refund kind: the execution's idempotency key", () => {
  it("a change_shipping_address pack whose key is actionIdempotencyKey(kind, proposal id) verifies", async () => {
    const own = `${KIND}-${change.id}`;
    expect(actionIdempotencyKey(KIND, change.id)).toBe(own);
    const v = await verify(changePack(own));
    expect(failed(v)).toEqual([]);
    expect(v.ok).toBe(true);
    expect(v.checks).toContainEqual({ name: "execution idempotency key", ok: true });
  });

  it.each([
    ["the refund-shaped key of the same proposal", `refund-${change.id}`],
    ["the same kind's key of another proposal", `${KIND}-${otherId}`],
    ["another kind's key of the same proposal", `cancel_order-${change.id}`],
    ["the bare proposal id", change.id],
    ["the right key in another case", `${KIND}-${change.id}`.toUpperCase()],
    ["the right key with a suffix", `${KIND}-${change.id}-2`],
  ])("%s fails verification, on that check alone", async (_what, key) => {
    const v = await verify(changePack(key));
    expect(v.ok).toBe(false);
    expect(failed(v)).toEqual(["execution idempotency key"]);
  });

  it("a refund pack (a hash that names no kind) still wants the refund's key, not another kind's", async () => {
    expect(failed(await verify(refundPack(actionIdempotencyKey("refund", packProposal.id))))).toEqual([]);
    expect(failed(await verify(refundPack(`${KIND}-${packProposal.id}`)))).toEqual(["execution idempotency key"]);
  });

  it("npm run evidence:verify exits 1 on the refund-shaped key, printing the failed check; 0 on the kind's own", async () => {
    const dir = mkdtempSync(join(tmpdir(), "evidence-kind-key-"));
    const run = async (name: string, p: Draft) => {
      const file = join(dir, name);
      writeFileSync(file, serializeEvidencePack(p));
      const args = ["--conditions=react-server", "--import", "tsx", "scripts/evidence-verify.ts", file];
      try {
        const { stdout } = await promisify(execFile)(process.execPath, [...args, "--public-key", publicKey]);
        return { code: 0, stdout };
      } catch (error) {
        const e = error as { code?: number; stdout?: string };
        return { code: e.code, stdout: e.stdout ?? "" };
      }
    };
    const [forged, sound] = await Promise.all([
      run("forged.json", changePack(`refund-${change.id}`)),
      run("sound.json", changePack(`${KIND}-${change.id}`)),
    ]);
    expect(forged.code).toBe(1);
    expect(forged.stdout.split("\n").filter((l) => l.startsWith("FAIL"))).toEqual(["FAIL execution idempotency key"]);
    expect(forged.stdout).toContain("evidence pack FAILED verification");
    expect(sound.code).toBe(0);
    expect(sound.stdout).toContain("ok   execution idempotency key");
    expect(sound.stdout).toContain("evidence pack VERIFIED");
  }, 30_000);
});
