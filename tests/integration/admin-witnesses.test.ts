// Witness administration (docs/admin-api.md "Witnesses"): admins list, add and remove their tenant's
// witnesses and set the quorum. A tightening (adding a witness, raising the quorum) applies at once; a
// loosening (removing a witness, lowering the quorum) waits for a second, independent admin — one admin
// cannot do it alone. Every change is audited in its tenant; another tenant's witness is simply not found.
import { generateKeyPairSync } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import type { Actor } from "@/lib/server/auth/actor";
import { SIG_COSIGNATURE_V1, SIG_ED25519, vkeyOf } from "@/lib/domain/signed-note";
import { parseWitnessPolicy } from "@/lib/domain/witness-policy";
import { addWitness } from "@/lib/server/admin/witnesses/add-witness";
import { listWitnesses } from "@/lib/server/admin/witnesses/list-witnesses";
import { removeWitness } from "@/lib/server/admin/witnesses/remove-witness";
import { setWitnessQuorum } from "@/lib/server/admin/witnesses/set-witness-quorum";
import { decideAdminChange } from "@/lib/server/admin/decide-admin-change";
import { listAdminChanges } from "@/lib/server/admin/list-admin-changes";
import { grantAdminByOperator } from "@/lib/server/admin/grant-admin-by-operator";
import type { QueuedAdminChange } from "@/lib/server/admin/admin-change-store";
import { actorFor, staffOf } from "../support/actors";
import { refusal } from "../support/refusal";

const ES = "tienda-es";
const US = "shop-us";
const witnessKey = (name: string) => vkeyOf(name, SIG_COSIGNATURE_V1, generateKeyPairSync("ed25519").publicKey);
const input = (name: string) => ({ name, vkey: witnessKey(name), url: `http://127.0.0.1:7380/${name}` });
const quorum = async () => (await db().tenant.findFirstOrThrow({ where: { slug: ES } })).witnessQuorum;
const witnessNames = async () =>
  (await db().auditWitness.findMany({ where: { tenantId: A.tenantId }, orderBy: { name: "asc" } })).map((w) => w.name);
const events = (action: string) =>
  db().auditEvent.findMany({ where: { action: `admin:${action}` }, orderBy: { pos: "asc" } });

let A: Actor; // the demo's only admin of tienda-es
let B: Actor; // the auditor, made admin by the operator (independent of A)
let R: Actor; // a reviewer
let U: Actor; // shop-us's admin

beforeAll(async () => {
  A = await actorFor(staffOf(ES, "admin").email);
  B = await actorFor(staffOf(ES, "auditor").email);
  R = await actorFor(staffOf(ES, "reviewer").email);
  U = await actorFor(staffOf(US, "admin").email);
});

describe("witness administration", () => {
  it("is for admins only", async () => {
    for (const attempt of [
      listWitnesses(R),
      addWitness(R, input("r.example")),
      setWitnessQuorum(R, { quorum: 1 }),
      removeWitness(R, crypto.randomUUID()),
    ])
      expect(await refusal(attempt)).toMatchObject({ code: "permission_denied" });
    expect(await db().auditWitness.count()).toBe(0);
  });

  it("adding a witness applies at once, audited; bad keys, names and URLs get a stable code", async () => {
    const bad = async (raw: unknown) => refusal(addWitness(A, raw));
    expect(await bad({ ...input("w.example"), vkey: "nonsense" })).toMatchObject({
      code: "invalid_arguments",
      problem: "invalid",
    });
    const logKey = vkeyOf("w.example", SIG_ED25519, generateKeyPairSync("ed25519").publicKey);
    expect(await bad({ ...input("w.example"), vkey: logKey })).toMatchObject({
      code: "invalid_arguments",
      problem: "type",
    });
    expect(await bad({ ...input("w.example"), name: "other.example" })).toMatchObject({
      code: "invalid_arguments",
      problem: "mismatch",
    });
    expect(await bad({ ...input("w.example"), url: "http://user:pw@127.0.0.1/" })).toMatchObject({
      code: "invalid_arguments",
      problem: "credentials",
    });
    expect(await bad({ ...input("w.example"), url: "ftp://127.0.0.1/" })).toMatchObject({
      code: "invalid_arguments",
      problem: "protocol",
    });
    expect(await bad({ name: "w.example" })).toMatchObject({ code: "invalid_arguments" });
    expect(await db().auditWitness.count()).toBe(0);

    const w1 = input("w1.example");
    const added = await addWitness(A, w1);
    expect(added).toMatchObject({ name: "w1.example" });
    expect(await bad(w1)).toMatchObject({ code: "invalid_arguments", problem: "taken" });
    await addWitness(A, input("w2.example"));
    await addWitness(A, input("w3.example"));
    expect(await witnessNames()).toEqual(["w1.example", "w2.example", "w3.example"]);
    const [event] = await events("add_witness");
    expect(event).toMatchObject({ tenantId: A.tenantId, actorId: A.userId });
    expect(event!.data).toMatchObject({
      target: { kind: "witness", id: added.id, name: "w1.example" },
      after: { vkey: expect.stringContaining(w1.vkey.split("+").slice(0, 2).join("+")) },
    }); // the key id stays readable
  });

  it("raising the quorum applies at once (up to the number of witnesses, not beyond); the policy file says so", async () => {
    expect(await setWitnessQuorum(A, { quorum: 2 })).toEqual({ status: "applied", quorum: 2 });
    expect(await setWitnessQuorum(A, { quorum: 3 })).toEqual({ status: "applied", quorum: 3 }); // exactly the number of witnesses
    expect(await refusal(setWitnessQuorum(A, { quorum: 4 }))).toMatchObject({
      code: "invalid_arguments",
      problem: "above_witnesses",
    });
    expect(await refusal(setWitnessQuorum(A, { quorum: -1 }))).toMatchObject({ code: "invalid_arguments" });
    expect(await quorum()).toBe(3);
    expect(
      (await events("set_witness_quorum")).map((e) => (e.data as { before: unknown; after: unknown }).after),
    ).toEqual([{ quorum: 2 }, { quorum: 3 }]);
    const list = await listWitnesses(A);
    expect(list.quorum).toBe(3);
    const policy = parseWitnessPolicy(list.policy);
    expect(policy).toMatchObject({ quorum: 3 });
    expect(policy.witnesses.map((w) => w.name)).toEqual(["w1.example", "w2.example", "w3.example"]);
    expect(list.origin).toBe(`localhost:3000/audit/${A.tenantId}`);
  });

  it("one admin alone cannot loosen: lowering the quorum or removing a witness is refused, nothing changes", async () => {
    expect(await refusal(setWitnessQuorum(A, { quorum: 2 }))).toMatchObject({
      code: "permission_denied",
      reason: "no_second_admin",
    });
    await setWitnessQuorum(A, { quorum: 2 }).catch(() => undefined);
    const w3 = (await db().auditWitness.findFirstOrThrow({ where: { tenantId: A.tenantId, name: "w3.example" } })).id;
    expect(await refusal(removeWitness(A, w3))).toMatchObject({ code: "invalid_arguments", problem: "below_quorum" }); // 3 witnesses, quorum 3
    expect(await quorum()).toBe(3);
    expect(await db().adminChange.count({ where: { kind: "witness_policy" } })).toBe(0);
  });

  it("with a second admin: a lowering waits, the proposer cannot approve it, the other admin's approval applies it", async () => {
    await grantAdminByOperator({ tenantSlug: ES, email: B.email });
    B = await actorFor(B.email);
    const queued = (await setWitnessQuorum(A, { quorum: 2 })) as QueuedAdminChange;
    expect(queued).toMatchObject({ status: "awaiting_second_admin", change: { kind: "witness_policy" } });
    expect(await quorum()).toBe(3);
    const pending = (await listAdminChanges(B)).pending.find((c) => c.id === queued.change.id)!;
    expect(pending).toMatchObject({
      what: ["lower_witness_quorum"],
      target: { name: "witness policy", email: "quorum 3 → 2" },
      approvalRefusal: null,
    });
    expect(await refusal(decideAdminChange(A, queued.change.id, "approve"))).toMatchObject({
      code: "permission_denied",
      reason: "own_change",
    });
    expect(await quorum()).toBe(3);
    expect(await decideAdminChange(B, queued.change.id, "approve")).toMatchObject({ status: "approved" });
    expect(await quorum()).toBe(2);
    const last = (await events("set_witness_quorum")).at(-1)!;
    expect(last).toMatchObject({ actorId: B.userId, tenantId: A.tenantId });
    expect(last.data).toMatchObject({
      target: { change: queued.change.id },
      before: { quorum: 3 },
      after: { quorum: 2 },
    });
  });

  it("removing a witness waits for the second admin too; applied, it is gone and audited", async () => {
    const w3 = (await db().auditWitness.findFirstOrThrow({ where: { tenantId: A.tenantId, name: "w3.example" } })).id;
    const queued = await removeWitness(A, w3);
    expect(queued.status).toBe("awaiting_second_admin");
    expect(await witnessNames()).toContain("w3.example");
    expect((await listAdminChanges(B)).pending.find((c) => c.id === queued.change.id)).toMatchObject({
      what: ["remove_witness"],
      target: { email: "w3.example" },
    });
    await decideAdminChange(B, queued.change.id, "approve");
    expect(await witnessNames()).toEqual(["w1.example", "w2.example"]);
    expect((await events("remove_witness")).at(-1)).toMatchObject({
      actorId: B.userId,
      data: expect.objectContaining({ target: expect.objectContaining({ name: "w3.example" }) }),
    });
  });

  it("a lowering approved after the quorum moved is stale: refused, nothing applied", async () => {
    const queued = (await setWitnessQuorum(A, { quorum: 1 })) as QueuedAdminChange;
    await addWitness(A, input("w4.example"));
    expect(await setWitnessQuorum(A, { quorum: 3 })).toMatchObject({ status: "applied" });
    expect(await refusal(decideAdminChange(B, queued.change.id, "approve"))).toMatchObject({
      code: "permission_denied",
      reason: "stale",
    });
    expect(await quorum()).toBe(3);
    expect(await db().adminChange.findUniqueOrThrow({ where: { id: queued.change.id } })).toMatchObject({
      status: "pending",
    });
  });

  it("another tenant's admin sees none of it and cannot touch it", async () => {
    const w1 = (await db().auditWitness.findFirstOrThrow({ where: { tenantId: A.tenantId, name: "w1.example" } })).id;
    expect(await refusal(removeWitness(U, w1))).toMatchObject({ code: "not_found" });
    expect(await listWitnesses(U)).toMatchObject({ witnesses: [], quorum: 0 });
    expect(await refusal(removeWitness(A, "not-a-uuid"))).toMatchObject({ code: "not_found" });
    expect(await witnessNames()).toContain("w1.example");
  });
});
