// People rename and remove their own passkeys (removing needs step-up); a removed passkey is no
// longer offered, listed, counted nor accepted, yet earlier approvals made with it stay verifiable.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { webAuthnRelyingParty } from "@/lib/server/env";
import { createRegistrationOptions } from "@/lib/server/passkeys/create-registration-options";
import { registerPasskey } from "@/lib/server/passkeys/register-passkey";
import { createApprovalOptions } from "@/lib/server/passkeys/create-approval-options";
import { listPasskeys } from "@/lib/server/passkeys/list-passkeys";
import { removePasskey, renamePasskey } from "@/lib/server/passkeys/manage-passkey";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { listStaff } from "@/lib/server/admin/list-staff";
import { buildEvidencePack } from "@/lib/server/audit/build-evidence-pack";
import type { Actor } from "@/lib/server/auth/actor";
import { createSoftAuthenticator } from "../support/soft-authenticator";
import { actorFor, staffOf } from "../support/actors";
import { ES } from "./gateway-support";
import { preparedForFreshOrder } from "./proposal-support";

async function enroll(actor: Actor, name: string) {
  const authenticator = createSoftAuthenticator(webAuthnRelyingParty());
  const options = await createRegistrationOptions(actor);
  await registerPasskey(actor, { response: authenticator.register(options.challenge), name });
  return authenticator;
}
const prepare = async (amountMinor: number) => (await preparedForFreshOrder(amountMinor, { prefix: "PKM" })).proposal;
async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; details?: { reason?: string } };
  }
  throw new Error("expected a refusal");
}

describe("managing one's own passkeys", () => {
  it("rename (audited), remove with step-up; removed: not listed, counted, offered nor accepted; old approvals still verify", async () => {
    const reviewer = await actorFor(staffOf(ES, "reviewer").email);
    const key = await enroll(reviewer, "Laptop");
    const renamed = await renamePasskey(reviewer, key.credentialId, { name: "  Work laptop " });
    expect(renamed.name).toBe("Work laptop");
    expect((await listPasskeys(reviewer)).map((p) => p.name)).toEqual(["Work laptop"]);
    const admin = await actorFor(staffOf(ES, "admin").email);
    expect((await listStaff(admin, { q: reviewer.email }))[0]!.passkeys).toBe(1);

    // An approval made with it.
    const stale = await actorFor(reviewer.email, { authAgoSeconds: 3600 });
    const p = await prepare(1_111);
    const options = await createApprovalOptions(stale, { proposalId: p.id, hash: p.hash });
    await approveProposal(stale, {
      proposalId: p.id,
      hash: p.hash,
      stepUp: { method: "passkey", response: key.authenticate(options.challenge) },
    });

    // Removing needs step-up.
    expect(await refusal(removePasskey(stale, key.credentialId, {}))).toMatchObject({
      code: "permission_denied",
      details: { reason: "step_up_required" },
    });
    await removePasskey(stale, key.credentialId, { stepUpPassword: staffOf(ES, "reviewer").password });
    expect(await listPasskeys(reviewer)).toEqual([]);
    expect((await listStaff(admin, { q: reviewer.email }))[0]!.passkeys).toBe(0);
    const q = await prepare(2_222);
    expect(await refusal(createApprovalOptions(stale, { proposalId: q.id, hash: q.hash }))).toMatchObject({
      details: { reason: "no_passkeys" },
    });
    // Even an assertion made for a challenge of another credential cannot use it: re-enroll a second key for options.
    const other = await enroll(reviewer, "Phone");
    const o2 = await createApprovalOptions(stale, { proposalId: q.id, hash: q.hash });
    const withRemoved = await refusal(
      approveProposal(stale, {
        proposalId: q.id,
        hash: q.hash,
        stepUp: { method: "passkey", response: key.authenticate(o2.challenge) },
      }),
    );
    expect(withRemoved).toMatchObject({ code: "permission_denied" });
    expect(await db().approval.count({ where: { proposalId: q.id } })).toBe(0);
    expect(other.credentialId).not.toBe(key.credentialId);

    // The earlier approval's evidence still holds the removed key's public key and verifies.
    const row = await db().passkeyCredential.findUniqueOrThrow({ where: { id: key.credentialId } });
    expect(row.removedAt).toBeInstanceOf(Date);
    const pack = await buildEvidencePack(admin, p.id);
    expect(pack.body).toContain(row.publicKey);

    const events = await db().auditEvent.findMany({
      where: { actorId: reviewer.userId, action: { in: ["account:rename_passkey", "account:remove_passkey"] } },
      orderBy: { pos: "asc" },
    });
    expect(events.map((e) => e.action)).toEqual(["account:rename_passkey", "account:remove_passkey"]);
    expect(events[0]!.data).toMatchObject({ before: { name: "Laptop" }, after: { name: "Work laptop" } });
  });

  it("nobody renames or removes another person's passkey; bad names refused", async () => {
    const owner = await actorFor(staffOf(ES, "reviewer", 1).email);
    const key = await enroll(owner, "Mine");
    const admin = await actorFor(staffOf(ES, "admin").email);
    expect(await refusal(renamePasskey(admin, key.credentialId, { name: "stolen" }))).toMatchObject({
      code: "not_found",
    });
    expect(await refusal(removePasskey(admin, key.credentialId, {}))).toMatchObject({ code: "not_found" });
    expect(await refusal(renamePasskey(owner, key.credentialId, { name: "" }))).toMatchObject({
      code: "invalid_arguments",
    });
    expect(await refusal(renamePasskey(owner, key.credentialId, { name: "x".repeat(65) }))).toMatchObject({
      code: "invalid_arguments",
    });
    expect((await db().passkeyCredential.findUniqueOrThrow({ where: { id: key.credentialId } })).name).toBe("Mine");
  });
});
