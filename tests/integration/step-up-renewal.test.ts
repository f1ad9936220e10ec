// Step-up that lasts its window (docs/design.md): a verified password or passkey renews the step-up window
// of the session it was given in, so the next approval inside the window asks for nothing; the approval
// names what happened truthfully (password, passkey, session). Real database, real use cases.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { webAuthnRelyingParty } from "@/lib/server/env";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { getProposal } from "@/lib/server/proposals/get-proposal";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { createRegistrationOptions } from "@/lib/server/passkeys/create-registration-options";
import { registerPasskey } from "@/lib/server/passkeys/register-passkey";
import { createApprovalOptions } from "@/lib/server/passkeys/create-approval-options";
import { createSoftAuthenticator } from "../support/soft-authenticator";
import { actorFor, nextRequestOf, staffOf } from "../support/actors";
import { preparedForFreshOrder } from "./proposal-support";
import { ES, US, john } from "./gateway-support";

const fresh = async (amountMinor: number, tenant = ES) =>
  (await preparedForFreshOrder(amountMinor, { prefix: "SU", ...(tenant === US ? { tenant: US, customer: john } : {}) }))
    .proposal;
const approvalOf = (proposalId: string) => db().approval.findFirstOrThrow({ where: { proposalId } });
const sessionRow = (id: string | undefined) => db().staffSession.findUniqueOrThrow({ where: { id } });

describe("step-up renewal", () => {
  it("a password step-up renews the session's window: the next approval asks nothing and says 'session'", async () => {
    const who = staffOf(ES, "reviewer", 1);
    const stale = await actorFor(who.email, { authAgoSeconds: 6 * 60, session: true }); // window: 5 minutes
    const [a, b] = [await fresh(1_100), await fresh(1_200)];
    await expect(approveProposal(stale, { proposalId: a.id, hash: a.hash })).rejects.toMatchObject({
      details: { reason: "step_up_required" },
    });

    const before = Date.now();
    await approveProposal(stale, {
      proposalId: a.id,
      hash: a.hash,
      stepUp: { method: "password", password: who.password },
    });
    expect(await approvalOf(a.id)).toMatchObject({ authMethod: "password" });
    const row = await sessionRow(stale.sessionId);
    expect(row.stepUpMethod).toBe("password");
    expect(row.stepUpAt.getTime()).toBeGreaterThanOrEqual(before - 1000);

    const next = await nextRequestOf(stale);
    expect(new Date((await getProposal(next, b.id)).viewer.stepUpAfter).getTime()).toBeGreaterThan(
      Date.now() + 4 * 60_000,
    );
    await approveProposal(next, { proposalId: b.id, hash: b.hash });
    const second = await approvalOf(b.id);
    expect(second.authMethod).toBe("session");
    expect(Math.abs(second.authTime.getTime() - row.stepUpAt.getTime())).toBeLessThan(1000); // the window's start, in seconds
    const event = await db().auditEvent.findFirstOrThrow({ where: { proposalId: b.id, action: "proposal:approve" } });
    expect(event).toMatchObject({ authMethod: "session", outcome: "ok" });
    expect(event.data).toMatchObject({ windowOpenedBy: "password" });
  });

  it("the window is the tenant's: 5 s before its end still fresh, 2 s past it stale again", async () => {
    const who = staffOf(ES, "reviewer", 1);
    const actor = await actorFor(who.email, { session: true });
    const p = await fresh(1_300);
    const fiveMinutes = 5 * 60;
    await db().staffSession.update({
      where: { id: actor.sessionId },
      data: { stepUpAt: new Date(Date.now() - (fiveMinutes + 2) * 1000) },
    });
    await expect(approveProposal(await nextRequestOf(actor), { proposalId: p.id, hash: p.hash })).rejects.toMatchObject(
      {
        details: { reason: "step_up_required" },
      },
    );
    await db().staffSession.update({
      where: { id: actor.sessionId },
      data: { stepUpAt: new Date(Date.now() - (fiveMinutes - 5) * 1000) },
    });
    await approveProposal(await nextRequestOf(actor), { proposalId: p.id, hash: p.hash });
    expect(await approvalOf(p.id)).toMatchObject({ authMethod: "session" });
  });

  it("nothing renews on a wrong password, nor on an approval refused after the password was right", async () => {
    const who = staffOf(ES, "reviewer", 1);
    const stale = await actorFor(who.email, { authAgoSeconds: 6 * 60, session: true });
    const p = await fresh(1_400);
    const opened = (await sessionRow(stale.sessionId)).stepUpAt;
    await expect(
      approveProposal(stale, {
        proposalId: p.id,
        hash: p.hash,
        stepUp: { method: "password", password: "wrong-password" },
      }),
    ).rejects.toMatchObject({
      details: { reason: "step_up_failed" },
    });
    // Right password, wrong hash: the approval is refused in its transaction, and so is the renewal.
    await expect(
      approveProposal(stale, {
        proposalId: p.id,
        hash: "0".repeat(64),
        stepUp: { method: "password", password: who.password },
      }),
    ).rejects.toMatchObject({
      details: { reason: "hash_mismatch" },
    });
    expect((await sessionRow(stale.sessionId)).stepUpAt).toEqual(opened);
    await db().staffUser.update({ where: { email: who.email }, data: { failedLoginCount: 0, lockedUntil: null } });
  });

  it("a renewal touches only that session of that person: another session, or someone else's session id, stays stale", async () => {
    const who = staffOf(ES, "reviewer", 1);
    const laptop = await actorFor(who.email, { authAgoSeconds: 6 * 60, session: true });
    const phone = await actorFor(who.email, { authAgoSeconds: 6 * 60, session: true });
    const other = await actorFor(staffOf(ES, "reviewer").email, { authAgoSeconds: 6 * 60, session: true });
    const p = await fresh(1_500);
    await approveProposal(laptop, {
      proposalId: p.id,
      hash: p.hash,
      stepUp: { method: "password", password: who.password },
    });
    expect((await nextRequestOf(phone)).stepUpAt).toBe(phone.stepUpAt);
    // An actor pointing at another person's session id renews nothing of it.
    await requireStepUp({ ...laptop, sessionId: other.sessionId }, who.password);
    expect((await nextRequestOf(other)).stepUpAt).toBe(other.stepUpAt);
  });

  it("a passkey approval renews the window, and so does an admin's password step-up", async () => {
    const reviewer = await actorFor(staffOf(US, "reviewer").email, { authAgoSeconds: 60 * 60, session: true });
    const key = createSoftAuthenticator(webAuthnRelyingParty());
    await registerPasskey(reviewer, {
      response: key.register((await createRegistrationOptions(reviewer)).challenge),
      name: "Renewal key",
    });
    const [p, q] = [await fresh(2_100, US), await fresh(2_200, US)];
    const options = await createApprovalOptions(reviewer, { proposalId: p.id, hash: p.hash });
    await approveProposal(reviewer, {
      proposalId: p.id,
      hash: p.hash,
      stepUp: { method: "passkey", response: key.authenticate(options.challenge) },
    });
    expect(await sessionRow(reviewer.sessionId)).toMatchObject({ stepUpMethod: "passkey" });
    await approveProposal(await nextRequestOf(reviewer), { proposalId: q.id, hash: q.hash });
    expect(await approvalOf(q.id)).toMatchObject({ authMethod: "session" });

    const adminWho = staffOf(ES, "admin");
    const admin = await actorFor(adminWho.email, { authAgoSeconds: 60 * 60, session: true });
    await expect(requireStepUp(admin, undefined)).rejects.toMatchObject({ details: { reason: "step_up_required" } });
    await requireStepUp(admin, adminWho.password);
    await expect(requireStepUp(await nextRequestOf(admin), undefined)).resolves.toBeUndefined();
  });
});
