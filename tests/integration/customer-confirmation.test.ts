// Customer confirmation bound to the hash (docs/agent-api.md "Customer confirmation", docs/action-kinds.md "Who
// confirms"), against the real database, the real sandbox shop process and the confirm route over real HTTP: who must
// confirm is decided at prepare and hashed (v6 / v7); approval_required carries a one-time confirm link; the customer's
// confirmation alone approves a customer-only address change, which the shop then carries out with no reviewer; a
// refund the tenant raises to "both" needs the reviewer and the customer, in either order; a link reused, expired,
// unknown, foreign or issued before the proposal changed is refused; declining rejects with the customer's reason; the
// evidence pack carries the confirmation and the verifier checks it is bound to the hash.
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ShopControl } from "@/shop-sandbox/control-client";
import { executionStatus } from "@/lib/domain/execution-state";
import { proposalStatus as P } from "@/lib/domain/proposal-state";
import { storedProposalIntact } from "@/lib/domain/proposal-hash";
import { serializeEvidencePack, verifyEvidencePack, type EvidencePack } from "@/lib/domain/evidence-pack";
import { authenticateAgentKey, type AgentCaller } from "@/lib/server/agent/authenticate-agent-key";
import { executeToolCall } from "@/lib/server/agent/execute-tool-call";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { buildEvidencePack } from "@/lib/server/audit/build-evidence-pack";
import { auditPublicKey } from "@/lib/server/audit/signing-key";
import { integratePending } from "@/lib/server/audit/sequencer";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { getProposal } from "@/lib/server/proposals/get-proposal";
import { readConfirmPage } from "@/lib/server/confirmations/read-confirm-page";
import { confirmTokenHash } from "@/lib/server/confirmations/confirm-token";
import { stopProposalChanges } from "@/lib/server/realtime/proposal-changes";
import { AGENT_LEFTOVER_GRACE_HOURS, purgeAgentLeftovers } from "@/lib/server/agent/purge-agent-leftovers";
import { executeApprovedProposal } from "@/lib/server/executions/run-execution";
import { POST as confirmPOST } from "@/app/api/confirm/[token]/route";
import ConfirmPage, { metadata as confirmPageMetadata } from "@/app/confirm/[token]/page";
import ConfirmResultPage from "@/app/confirm/result/page";
import { confirmTranslator } from "@/lib/server/confirmations/confirm-messages";
import { renderToStaticMarkup } from "react-dom/server";
import { actorFor, staffOf } from "../support/actors";
import { refusal } from "../support/refusal";
import { runJobsOnce } from "../support/run-jobs-once";
import { startGatewayServer, type RouteHandler } from "../support/gateway-http-server";
import { allowAddressChangeTool, copyDemoOrder, startShopBehindEndpoint } from "../support/address-change-shop";
import { freshCardOrder } from "./proposal-support";
import { ES, ana, tokenFor, webKey } from "./gateway-support";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

let stopShop: (() => Promise<void>) | undefined;
let control: ShopControl;
let server: { url: string; close: () => Promise<void> };
let caller: AgentCaller;
let reviewer: Actor;
let seq = 0;

const madrid = (line1 = "Calle de Alcalá 50", over: Record<string, unknown> = {}) => ({
  name: "Ana García",
  line1,
  line2: null,
  city: "Madrid",
  postal_code: "28014",
  region: null,
  country: "es",
  ...over,
});
const lisbon = { ...madrid("Rua Augusta 10"), city: "Lisboa", postal_code: "1100-053", country: "pt" };

async function call(tool: string, args: unknown) {
  return executeToolCall(
    caller,
    {
      traceId: `confirm-${randomUUID()}`,
      transport: "anthropic",
      callId: `toolu_${++seq}`,
      endUserToken: await tokenFor(ES, ana),
      model: null,
      promptVersion: null,
    },
    tool,
    args,
  );
}
const resultOf = (o: { code: string }) => {
  if (!("result" in o)) throw new Error(`expected a result, got ${JSON.stringify(o)}`);
  return o.result as Record<string, unknown>;
};
/** Prepares an address change and answers the proposal and its confirm link's token. */
async function prepareAddress(number: string, address: unknown = madrid()) {
  const { outcome, proposal } = await call("prepare_address_change", { order_id: number, new_address: address });
  const result = resultOf(outcome);
  return { proposal: proposal!, result, token: tokenOf(result) };
}
const tokenOf = (result: Record<string, unknown>) =>
  typeof result.confirm_url === "string" ? result.confirm_url.split("/confirm/")[1]! : null;

/** The confirm page's form, posted over HTTP as the phone's browser would (same origin). */
async function post(
  token: string,
  form: { proposal_id: string; hash: string; decision: "confirm" | "decline"; reason?: string; lang?: string },
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${server.url}/api/confirm/${token}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      origin: server.url,
      "content-type": "application/x-www-form-urlencoded",
      "user-agent": IPHONE,
      ...headers,
    },
    body: new URLSearchParams(form).toString(),
  });
  const location = res.headers.get("location") ?? "";
  return { status: res.status, location, answer: new URLSearchParams(location.split("?")[1] ?? "") };
}
const confirm = (token: string, p: { id: string; hash: string }) =>
  post(token, { proposal_id: p.id, hash: p.hash, decision: "confirm" });
const proposalOf = (id: string) => db().proposal.findUniqueOrThrow({ where: { id } });

beforeAll(async () => {
  ({ control, stop: stopShop } = await startShopBehindEndpoint(ES));
  await allowAddressChangeTool([ES]);
  const es = await authenticateAgentKey(`Bearer ${webKey(ES)}`);
  if (!es.ok) throw new Error("demo agent key refused");
  caller = es.caller;
  reviewer = await actorFor(staffOf(ES, "reviewer").email);
  server = await startGatewayServer({
    "/api/confirm/*": {
      methods: { POST: confirmPOST as unknown as RouteHandler },
      params: (pathname) => ({ token: pathname.split("/").pop()! }),
    },
  });
});

afterAll(async () => {
  await server?.close();
  await stopProposalChanges();
  await stopShop?.();
});

beforeEach(async () => {
  await control.clearFaults();
});

describe("who confirms, decided at prepare and hashed", () => {
  it("an address change within the country: the customer only, hashed v6, a one-time link stored as its hash", async () => {
    const number = await copyDemoOrder("C", control);
    const { proposal, result, token } = await prepareAddress(number);
    expect(result).toMatchObject({ kind: "change_shipping_address", approvals_required: 1 });
    expect(result.confirm_url).toMatch(/\/confirm\/[A-Za-z0-9_-]{43}$/);
    const row = await proposalOf(proposal.id);
    expect(row).toMatchObject({ hashVersion: 6, confirmation: "customer", status: P.pendingApproval });
    expect(storedProposalIntact(row)).toBe(true);
    // Who confirms is bound by the hash: the row told "reviewers" no longer recomputes to it.
    expect(storedProposalIntact({ ...row, confirmation: "reviewers" })).toBe(false);
    const links = await db().customerConfirmation.findMany({ where: { proposalId: proposal.id } });
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ tokenHash: confirmTokenHash(token!), proposalHash: row.hash, endUserSub: ana });
    expect(JSON.stringify(links)).not.toContain(token);
    const ttl = links[0]!.expiresAt.getTime() - links[0]!.createdAt.getTime();
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    expect(links[0]!.expiresAt.getTime()).toBeLessThanOrEqual(row.expiresAt.getTime());
    // The link is never written to the audit trail.
    const events = await db().auditEvent.findMany({ where: { proposalId: proposal.id } });
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it("across a border: the customer and a reviewer (both), hashed v6", async () => {
    const number = await copyDemoOrder("C", control);
    const { proposal, token } = await prepareAddress(number, lisbon);
    expect(await proposalOf(proposal.id)).toMatchObject({ hashVersion: 6, confirmation: "both" });
    expect(token).not.toBeNull();
  });

  it("a refund needs a reviewer only (v4, no link) until the tenant asks the customer too: both, hashed v7", async () => {
    const { number } = await freshCardOrder(2500);
    const plain = await call("prepare_refund", { order_id: number, reason: "damaged_item" });
    expect(resultOf(plain.outcome).confirm_url).toBeUndefined();
    expect(await proposalOf(plain.proposal!.id)).toMatchObject({ hashVersion: 4, confirmation: "reviewers" });
  });
});

describe("the customer's confirmation is an approval", () => {
  it("customer-only: confirmed on the link → approved → executed on the shop, with no reviewer", async () => {
    await runJobsOnce();
    const number = await copyDemoOrder("C", control);
    const { proposal, token } = await prepareAddress(number);
    // A reviewer cannot stand in for the customer.
    expect(await refusal(approveProposal(reviewer, { proposalId: proposal.id, hash: proposal.hash }))).toMatchObject({
      code: "permission_denied",
      reason: "customer_confirms",
    });
    // … and the proposal page offers no approval (rejecting stays possible).
    expect((await getProposal(reviewer, proposal.id)).viewer).toMatchObject({ canDecide: false, canReject: true });
    const page = await readConfirmPage(token!);
    expect(page).toMatchObject({ ok: true, view: { proposalId: proposal.id, hash: proposal.hash, locale: "es-ES" } });
    // The page, in the tenant's language, shows the hashed action only: a heading naming it, the new address, the
    // hash it will post, and the two buttons — nothing else of the account (no e-mail, no other order).
    const html = renderToStaticMarkup(await ConfirmPage({ params: Promise.resolve({ token: token! }) }));
    expect(html).toContain('lang="es-ES"');
    expect(html).toMatch(/<h1[^>]*>Cambio de dirección de envío<\/h1>/);
    expect(html).toContain("Calle de Alcalá 50");
    expect(html).toContain(`value="${proposal.hash}"`);
    expect(html).toMatch(/<button[^>]*value="confirm"[^>]*>Confirmar<\/button>/);
    expect(html).toMatch(/<button[^>]*value="decline"[^>]*>Rechazar<\/button>/);
    expect(html).not.toMatch(/@|ORD-1001\b/);
    // The form carries the page's language, so the result page it lands on speaks it too (not the phone's).
    expect(html).toContain('name="lang" value="es"');
    // The token never leaves for another site, yet the form's POST keeps its Origin (no-referrer would send "null").
    expect(confirmPageMetadata.referrer).toBe("same-origin");
    const posted = await post(
      token!,
      { proposal_id: proposal.id, hash: proposal.hash, decision: "confirm", lang: "es" },
      { "accept-language": "en-US" },
    );
    expect(posted).toMatchObject({ status: 303, location: "/confirm/result?outcome=confirmed&lang=es" });
    const result = renderToStaticMarkup(
      await ConfirmResultPage({ searchParams: Promise.resolve({ outcome: "confirmed", lang: "es" }) }),
    );
    expect(result).toContain('lang="es"');
    expect(result).toContain(confirmTranslator("es-ES")("confirm.done.confirmed"));
    expect(confirmTranslator("es-ES")("confirm.done.confirmed")).not.toBe(
      confirmTranslator("en-US")("confirm.done.confirmed"),
    );
    expect(await proposalOf(proposal.id)).toMatchObject({ status: P.approved });
    const link = await db().customerConfirmation.findFirstOrThrow({ where: { proposalId: proposal.id } });
    expect(link).toMatchObject({ decision: "confirmed", shownHash: proposal.hash, userAgent: "Safari on iOS" });
    const event = await db().auditEvent.findFirstOrThrow({
      where: { proposalId: proposal.id, action: "proposal:customer_confirmed" },
    });
    expect(event).toMatchObject({ actorType: "end_user", actorId: ana, outcome: "ok", proposalHash: proposal.hash });
    await runJobsOnce();
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: proposal.id } });
    expect(ex.status).toBe(executionStatus.succeeded);
    expect(await proposalOf(proposal.id)).toMatchObject({ status: P.succeeded });
    expect((await control.actions({ orderNumber: number })).data).toHaveLength(1);
    expect(await db().approval.count({ where: { proposalId: proposal.id } })).toBe(0);
  });

  it("both (a refund the tenant raises): the confirmation alone does not approve; the reviewer's then does; either order", async () => {
    await db().tenant.update({ where: { slug: ES }, data: { customerConfirmationKinds: ["refund"] } });
    try {
      const { number } = await freshCardOrder(3100);
      const prepared = await call("prepare_refund", { order_id: number, reason: "damaged_item" });
      const p = prepared.proposal!;
      expect(await proposalOf(p.id)).toMatchObject({ hashVersion: 7, confirmation: "both", requiredApprovals: 1 });
      const token = tokenOf(resultOf(prepared.outcome))!;
      expect(await confirm(token, p)).toMatchObject({ location: "/confirm/result?outcome=confirmed" });
      // The customer's confirmation never counts as a reviewer's.
      expect(await proposalOf(p.id)).toMatchObject({ status: P.pendingApproval });
      // The reviewers see it on the proposal's page (and its API): who must confirm, and when the customer did.
      const page = await getProposal(reviewer, p.id);
      expect(page.customerConfirmation).toMatchObject({
        required: "both",
        decision: "confirmed",
        browser: "Safari on iOS",
      });
      expect(page.customerConfirmation.decidedAt).toEqual(expect.any(String));
      expect(await approveProposal(reviewer, { proposalId: p.id, hash: p.hash })).toMatchObject({ status: P.approved });

      // The other order: the reviewer first leaves it pending for the customer; the customer's confirmation approves.
      const other = await freshCardOrder(1200);
      const second = await call("prepare_refund", { order_id: other.number, reason: "damaged_item" });
      const q = second.proposal!;
      expect(await approveProposal(reviewer, { proposalId: q.id, hash: q.hash })).toMatchObject({
        status: P.pendingApproval,
        approvals: 1,
      });
      expect(await confirm(tokenOf(resultOf(second.outcome))!, q)).toMatchObject({
        location: "/confirm/result?outcome=confirmed",
      });
      expect(await proposalOf(q.id)).toMatchObject({ status: P.approved });
    } finally {
      await db().tenant.update({ where: { slug: ES }, data: { customerConfirmationKinds: [] } });
    }
  });

  it("declining rejects the proposal with the customer's reason, which the agent reads", async () => {
    const number = await copyDemoOrder("C", control);
    const { proposal, token } = await prepareAddress(number);
    const declined = await post(token!, {
      proposal_id: proposal.id,
      hash: proposal.hash,
      decision: "decline",
      reason: "I moved again, wrong street",
    });
    expect(declined.location).toBe("/confirm/result?outcome=declined");
    expect(await proposalOf(proposal.id)).toMatchObject({
      status: P.rejected,
      rejectionReason: "I moved again, wrong street",
    });
    const status = await call("get_action_status", { proposal_id: proposal.id, wait_seconds: null });
    expect(status.outcome).toMatchObject({ code: "rejected" });
    expect(JSON.stringify(status.outcome)).toContain("I moved again, wrong street");
    const event = await db().auditEvent.findFirstOrThrow({
      where: { proposalId: proposal.id, action: "proposal:customer_declined" },
    });
    expect(event).toMatchObject({ actorType: "end_user", outcome: "ok" });
  });

  it("a reason over 500 characters, a missing hash, an unknown language or a cross-site post is refused and changes nothing", async () => {
    const number = await copyDemoOrder("C", control);
    const { proposal, token } = await prepareAddress(number);
    const long = await post(token!, {
      proposal_id: proposal.id,
      hash: proposal.hash,
      decision: "decline",
      reason: "x".repeat(501),
    });
    expect(long.answer.get("refused")).toBe("invalid_request");
    const noHash = await post(token!, { proposal_id: proposal.id, hash: "", decision: "confirm" });
    expect(noHash.answer.get("refused")).toBe("invalid_request");
    // The language is one the product speaks, never text carried into the redirect.
    const badLang = await post(token!, {
      proposal_id: proposal.id,
      hash: proposal.hash,
      decision: "confirm",
      lang: "en&outcome=confirmed",
    });
    expect(badLang.location).toBe("/confirm/result?refused=invalid_request");
    const foreign = await post(
      token!,
      { proposal_id: proposal.id, hash: proposal.hash, decision: "confirm" },
      {
        origin: "https://evil.example",
      },
    );
    expect(foreign.status).toBe(403);
    expect(await proposalOf(proposal.id)).toMatchObject({ status: P.pendingApproval });
    expect(
      (await db().customerConfirmation.findFirstOrThrow({ where: { proposalId: proposal.id } })).usedAt,
    ).toBeNull();
  });
});

describe("a link is refused with a clear, stable code", () => {
  it("reused, expired, unknown, or another proposal's", async () => {
    const a = await prepareAddress(await copyDemoOrder("C", control));
    const b = await prepareAddress(await copyDemoOrder("C", control));
    // Foreign: a's link with b's proposal (the form names the proposal it shows).
    expect((await confirm(a.token!, b.proposal)).answer.get("refused")).toBe("link_other_proposal");
    // Unknown: a token never issued (and one that is not even token-shaped).
    expect((await confirm(randomBytes(32).toString("base64url"), a.proposal)).answer.get("refused")).toBe(
      "link_unknown",
    );
    expect((await confirm("nope", a.proposal)).answer.get("refused")).toBe("link_unknown");
    expect(await readConfirmPage(randomBytes(32).toString("base64url"))).toMatchObject({
      ok: false,
      code: "link_unknown",
    });
    // Reused: the first use confirms, the replay is refused, and the page says so.
    expect((await confirm(a.token!, a.proposal)).answer.get("outcome")).toBe("confirmed");
    expect((await confirm(a.token!, a.proposal)).answer.get("refused")).toBe("link_used");
    expect(await readConfirmPage(a.token!)).toMatchObject({ ok: false, code: "link_used" });
    // Expired: past its expiry the link refuses, though the proposal still waits.
    await db().customerConfirmation.updateMany({
      where: { tokenHash: confirmTokenHash(b.token!) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await readConfirmPage(b.token!)).toMatchObject({ ok: false, code: "link_expired" });
    expect((await confirm(b.token!, b.proposal)).answer.get("refused")).toBe("link_expired");
    expect(await proposalOf(b.proposal.id)).toMatchObject({ status: P.pendingApproval });
    // A refusal is audited as the end user's attempt, with its code.
    const refused = await db().auditEvent.findMany({
      where: { proposalId: b.proposal.id, action: "proposal:customer_confirmed", outcome: "permission_denied" },
    });
    expect(refused.map((e) => (e.data as { refused?: string }).refused)).toEqual(
      expect.arrayContaining(["link_expired"]),
    );
  });

  it("a change to the proposal after the link was issued makes the link refuse", async () => {
    // Replaced: the customer asked for another address → the first proposal is invalidated; its link is closed.
    const number = await copyDemoOrder("C", control);
    const first = await prepareAddress(number);
    const second = await prepareAddress(number, madrid("Calle de Alcalá 52"));
    expect(await proposalOf(first.proposal.id)).toMatchObject({ status: P.invalidated });
    expect(await readConfirmPage(first.token!)).toMatchObject({ ok: false, code: "proposal_closed" });
    expect((await confirm(first.token!, first.proposal)).answer.get("refused")).toBe("proposal_closed");

    // The page showed another hash than the proposal's (the form carries what was shown).
    const stale = await post(second.token!, {
      proposal_id: second.proposal.id,
      hash: "0".repeat(64),
      decision: "confirm",
    });
    expect(stale.answer.get("refused")).toBe("proposal_changed");

    // A hashed value changed behind the link (the row no longer is what the link was issued for).
    const row = await proposalOf(second.proposal.id);
    const params = row.params as { after: { line1: string } };
    await db().proposal.update({
      where: { id: row.id },
      data: { params: { ...params, after: { ...params.after, line1: "Calle Falsa 123" } } },
    });
    expect(await readConfirmPage(second.token!)).toMatchObject({ ok: false, code: "proposal_changed" });
    expect((await confirm(second.token!, second.proposal)).answer.get("refused")).toBe("proposal_changed");
    expect(await proposalOf(second.proposal.id)).toMatchObject({ status: P.pendingApproval });

    // The order changed in the system of record (shipped): confirming re-derives, invalidates, refuses.
    const third = await prepareAddress(await copyDemoOrder("C", control));
    const order = await db().order.findFirstOrThrow({
      where: { number: ((await proposalOf(third.proposal.id)).params as { order: { number: string } }).order.number },
    });
    await db().order.update({ where: { id: order.id }, data: { fulfilment: "shipped" } });
    expect((await confirm(third.token!, third.proposal)).answer.get("refused")).toBe("proposal_changed");
    expect(await proposalOf(third.proposal.id)).toMatchObject({
      status: P.invalidated,
      invalidationReason: "order_shipped",
    });
  });

  it("a link issued for an earlier hash refuses after the proposal was re-hashed (superseded in place)", async () => {
    const { proposal, token } = await prepareAddress(await copyDemoOrder("C", control));
    // The link was issued for the hash then; a proposal whose recorded hash moved on is not the one shown.
    await db().customerConfirmation.updateMany({
      where: { tokenHash: confirmTokenHash(token!) },
      data: { proposalHash: "f".repeat(64) },
    });
    expect(await readConfirmPage(token!)).toMatchObject({ ok: false, code: "proposal_changed" });
    expect((await confirm(token!, proposal)).answer.get("refused")).toBe("proposal_changed");
  });
});

describe("the customer's confirmation stays bound", () => {
  it("a link is the proposal's customer's: a link whose sub is another's refuses", async () => {
    const { proposal, token } = await prepareAddress(await copyDemoOrder("C", control));
    await db().customerConfirmation.updateMany({
      where: { tokenHash: confirmTokenHash(token!) },
      data: { endUserSub: "someone-else" },
    });
    expect((await confirm(token!, proposal)).answer.get("refused")).toBe("proposal_changed");
    expect(await proposalOf(proposal.id)).toMatchObject({ status: P.pendingApproval });
  });

  it("a proposal past its expiry is closed by the link, never confirmed", async () => {
    const { proposal, token } = await prepareAddress(await copyDemoOrder("C", control));
    await db().proposal.update({ where: { id: proposal.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await confirm(token!, proposal)).answer.get("refused")).toBe("proposal_closed");
    expect(await proposalOf(proposal.id)).toMatchObject({ status: P.expired });
  });

  it("the status tool hands out a fresh link while the customer has not confirmed", async () => {
    const { proposal } = await prepareAddress(await copyDemoOrder("C", control));
    const status = resultOf(
      (await call("get_action_status", { proposal_id: proposal.id, wait_seconds: null })).outcome,
    );
    expect(status.confirm_url).toMatch(/\/confirm\/[A-Za-z0-9_-]{43}$/);
    expect(await db().customerConfirmation.count({ where: { proposalId: proposal.id } })).toBe(2);
  });

  it("the hourly purge deletes links never used a day past their expiry — never a used one — and expired MCP tasks and sessions", async () => {
    const { proposal, token } = await prepareAddress(await copyDemoOrder("C", control));
    resultOf((await call("get_action_status", { proposal_id: proposal.id, wait_seconds: null })).outcome);
    expect((await confirm(token!, proposal)).answer.get("outcome")).toBe("confirmed");
    const links = await db().customerConfirmation.findMany({ where: { proposalId: proposal.id } });
    expect(links.map((l) => l.usedAt !== null).sort()).toEqual([false, true]);
    const grace = AGENT_LEFTOVER_GRACE_HOURS * 3600_000;
    const key = await db().agentKey.findFirstOrThrow({ where: { tenantId: caller.tenantId } });
    const task = (id: string, expiresAt: Date) => ({
      id,
      tenantId: caller.tenantId,
      agentKeyId: key.id,
      tool: "prepare_address_change",
      traceId: "purge",
      status: "cancelled",
      ttlMs: 1000,
      pollIntervalMs: 1000,
      expiresAt,
    });
    const session = (idHash: string, expiresAt: Date) => ({
      idHash,
      tenantId: caller.tenantId,
      agentKeyId: key.id,
      capabilities: {},
      protocolVersion: "2025-11-25",
      expiresAt,
    });
    const [oldTask, newTask] = [randomUUID(), randomUUID()];
    const [oldSession, newSession] = [randomBytes(32).toString("hex"), randomBytes(32).toString("hex")];
    // Both links, the task and the session expired more than a day ago; the others, less than a day ago.
    await db().customerConfirmation.updateMany({
      where: { proposalId: proposal.id },
      data: { expiresAt: new Date(Date.now() - grace - 60_000) },
    });
    await db().mcpTask.createMany({
      data: [task(oldTask, new Date(Date.now() - grace - 60_000)), task(newTask, new Date(Date.now() - 60_000))],
    });
    await db().mcpSession.createMany({
      data: [
        session(oldSession, new Date(Date.now() - grace - 60_000)),
        session(newSession, new Date(Date.now() - 60_000)),
      ],
    });

    const purged = await purgeAgentLeftovers();
    expect(purged.confirmationLinks).toBeGreaterThanOrEqual(1);
    // The used link is the customer's recorded decision: kept. The unused one is gone.
    expect(
      (await db().customerConfirmation.findMany({ where: { proposalId: proposal.id } })).map((l) => l.usedAt !== null),
    ).toEqual([true]);
    expect((await db().mcpTask.findMany({ where: { id: { in: [oldTask, newTask] } } })).map((t) => t.id)).toEqual([
      newTask,
    ]);
    expect(
      (await db().mcpSession.findMany({ where: { idHash: { in: [oldSession, newSession] } } })).map((s) => s.idHash),
    ).toEqual([newSession]);
  });

  it("the executor refuses a customer-only proposal marked approved without the customer's confirmation", async () => {
    const { proposal } = await prepareAddress(await copyDemoOrder("C", control));
    await db().proposal.update({ where: { id: proposal.id }, data: { status: P.approved } });
    await executeApprovedProposal(proposal.id);
    expect(await proposalOf(proposal.id)).toMatchObject({
      status: P.invalidated,
      invalidationReason: "approvals_not_bound_to_hash",
    });
    expect(await db().execution.count({ where: { proposalId: proposal.id } })).toBe(0);
  });
});

describe("the evidence pack", () => {
  it("holds the confirmation; evidence:verify passes, and fails when the confirmation's hash is altered or it is removed", async () => {
    const number = await copyDemoOrder("C", control);
    const { proposal, token } = await prepareAddress(number, madrid("Calle de Alcalá 90"));
    expect((await confirm(token!, proposal)).answer.get("outcome")).toBe("confirmed");
    await runJobsOnce();
    expect((await db().execution.findUniqueOrThrow({ where: { proposalId: proposal.id } })).status).toBe(
      executionStatus.succeeded,
    );
    const auditor = await actorFor(staffOf(ES, "auditor").email);
    await integratePending();
    const { body } = await buildEvidencePack(auditor, proposal.id);
    const key = { publicKey: auditPublicKey().publicKey };
    const verdict = await verifyEvidencePack(body, key);
    expect(verdict.checks.filter((c) => !c.ok)).toEqual([]);
    const pack = JSON.parse(body) as EvidencePack;
    expect(pack.approvals).toEqual([]);
    expect(pack.customerConfirmations).toEqual([
      expect.objectContaining({
        decision: "confirmed",
        endUserSub: ana,
        proposalHash: proposal.hash,
        userAgent: "Safari on iOS",
      }),
    ]);
    expect(JSON.parse(pack.proposal.canonicalJson)).toMatchObject({ v: 6, confirmation: "customer" });
    expect(verdict.checks.map((c) => c.name)).toContain("customer confirmation for the execution");

    // Altered, and the pack re-digested so only the confirmation's own check can catch it.
    const { packDigest: _d, ...rest } = pack;
    const altered = serializeEvidencePack({
      ...rest,
      customerConfirmations: [{ ...pack.customerConfirmations![0]!, proposalHash: "0".repeat(64) }],
    });
    const failed = await verifyEvidencePack(altered, key);
    expect(failed.ok).toBe(false);
    expect(failed.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^customer confirmation .* hash$/),
        "customer confirmation for the execution",
      ]),
    );
    // Removed: the hashed policy still asks for the customer, so the execution has no authority.
    const { customerConfirmations: _c, ...without } = rest;
    const bare = await verifyEvidencePack(serializeEvidencePack(without), key);
    expect(bare.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(["customer confirmation for the execution"]);
  });
});
