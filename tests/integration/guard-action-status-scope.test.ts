// get_action_status is scoped to the tenant and to the verified customer, in every step it takes: the read, the
// expiry it writes before reading (lib/server/proposals/agent-answer.ts, expireIfDue) and the wait before it
// (lib/server/proposals/wait-for-proposal-change.ts). Shop customer ids are the shops' own: shop-us has a customer
// whose id is the very string of tienda-es's Ana (the `sub` of her end-user token), and only the tenant tells their
// proposals apart. Each step must treat another tenant's customer with that id, and another customer of the same
// tenant, as if the proposal did not exist — answered not_found, never expired by them, never waited on — while
// the same calls from the proposal's own customer (and the twin on her own proposal) work: the refusal comes from
// the scope, not from anything else missing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proposalStatus as P } from "@/lib/domain/proposal-state";
import { authenticateAgentKey, type AgentCaller } from "@/lib/server/agent/authenticate-agent-key";
import { db } from "@/lib/server/db/client";
import { stopProposalChanges } from "@/lib/server/realtime/proposal-changes";
import { waitForProposalChange } from "@/lib/server/proposals/wait-for-proposal-change";
import { ES, US, ana, anthropicCall, freshTrace, headersFor, pablo, send, tokenFor, webKey } from "./gateway-support";
import { preparedForFreshOrder } from "./proposal-support";

let usCaller: AgentCaller;

beforeAll(async () => {
  // shop-us numbers its customers itself: one of them has Ana's id (as kind-conformance.test does).
  const us = await db().tenant.findUniqueOrThrow({ where: { slug: US } });
  await db().customer.create({ data: { id: ana, tenantId: us.id, name: "Ana Twin", email: "ana.twin@shop-us.test" } });
  const auth = await authenticateAgentKey(`Bearer ${webKey(US)}`);
  if (!auth.ok) throw new Error("shop-us's demo agent key refused");
  usCaller = auth.caller;
});

afterAll(async () => {
  await stopProposalChanges();
});

/** get_action_status through the gateway's HTTP route, as `customer` signed in at `tenant`'s web channel. */
async function actionStatus(tenant: string, customer: string, proposalId: string, waitSeconds: number | null = null) {
  const r = await send(
    anthropicCall("get_action_status", { proposal_id: proposalId, wait_seconds: waitSeconds }),
    headersFor({ key: webKey(tenant), token: await tokenFor(tenant, customer), trace: freshTrace() }),
  );
  return r;
}

/** Who asks about Ana's tienda-es proposal without being her. */
const strangers = [
  { who: "shop-us's customer with Ana's id", tenant: US, customer: ana },
  { who: "another customer of tienda-es", tenant: ES, customer: pablo },
] as const;

const statusOf = async (id: string) => (await db().proposal.findUniqueOrThrow({ where: { id } })).status;

describe("get_action_status: tenant and customer scope", () => {
  it("the twin's own proposal at shop-us is answered to her: her token and key work there", async () => {
    // The positive control for every not_found below: the same sub, at its own shop, is a working customer.
    const { proposal } = await preparedForFreshOrder(1_200, { tenant: US, customer: ana, prefix: "TWIN" });
    const own = await actionStatus(US, ana, proposal.id);
    expect(own.content).toMatchObject({ code: "approval_required", result: { proposal_id: proposal.id } });
    // …and Ana of tienda-es does not see it either way round.
    expect((await actionStatus(ES, ana, proposal.id)).content.code).toBe("not_found");
  });

  it.each(strangers)("a pending proposal is not_found for $who, and nothing of it leaks", async (s) => {
    const { number, proposal } = await preparedForFreshOrder(1_300, { prefix: "SCOPE" });
    const foreign = await actionStatus(s.tenant, s.customer, proposal.id);
    expect(foreign.content.code).toBe("not_found");
    expect(foreign.raw).not.toContain(number);
    expect(foreign.raw).not.toContain(proposal.hash);
    const own = await actionStatus(ES, ana, proposal.id);
    expect(own.content).toMatchObject({
      code: "approval_required",
      result: { proposal_id: proposal.id, kind: "refund", hash: proposal.hash },
    });
  });

  it.each(strangers)(
    "a stale pending proposal is not expired by $who's status read; its own customer's expires it",
    async (s) => {
      const { proposal } = await preparedForFreshOrder(1_400, { prefix: "SCOPE" });
      // Past its expiry, still pending: the next status read by its own customer marks it expired.
      await db().proposal.update({ where: { id: proposal.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
      const foreign = await actionStatus(s.tenant, s.customer, proposal.id);
      expect(foreign.content.code).toBe("not_found");
      expect(await statusOf(proposal.id)).toBe(P.pendingApproval);
      const own = await actionStatus(ES, ana, proposal.id);
      expect(own.content.code).toBe("expired");
      expect(await statusOf(proposal.id)).toBe(P.expired);
    },
  );

  it("wait_seconds from either stranger waits on nothing: not_found at once; her own wait on it runs", async () => {
    const { proposal } = await preparedForFreshOrder(1_500, { prefix: "SCOPE" });
    const esAuth = await authenticateAgentKey(`Bearer ${webKey(ES)}`);
    if (!esAuth.ok) throw new Error("tienda-es's demo agent key refused");
    const callerAt = (tenant: string) => (tenant === US ? usCaller : esAuth.caller);
    const input = { proposal_id: proposal.id, wait_seconds: 1 };
    for (const s of strangers) {
      // The wait step itself, as the gateway runs it before the read: nothing of theirs to wait for.
      const report = await waitForProposalChange(input, {
        caller: callerAt(s.tenant),
        customerId: s.customer,
        traceId: freshTrace(),
      });
      expect(report, s.who).toEqual({ outcome: "nothing_to_wait_for", unchanged: false });
      // Through the gateway: answered not_found at once, long before the 10 s asked for.
      const started = Date.now();
      const foreign = await actionStatus(s.tenant, s.customer, proposal.id, 10);
      expect(foreign.content.code, s.who).toBe("not_found");
      expect(Date.now() - started, s.who).toBeLessThan(5_000);
    }
    // Her own wait on the same pending proposal runs (and, nothing changing, times out): it was worth waiting for.
    expect(
      await waitForProposalChange(input, { caller: esAuth.caller, customerId: ana, traceId: freshTrace() }),
    ).toEqual({ outcome: "timeout", unchanged: true });
    expect(await statusOf(proposal.id)).toBe(P.pendingApproval);
  });
});
