// Admin-declared actions (issue #38 item 4, docs/action-kinds.md "Declaring an action") end to end, against the real
// database, the real sandbox shop behind tienda-es's action endpoint, and — for the derive's limits — a small HTTP
// server of this file behind shop-us's endpoint: one admin declares, a second independent admin approves with step-up
// (the proposer cannot); the tool is listed in every vendor format and MCP and callable over HTTP and MCP; the agent
// prepares it (params derived from the shop's answer, hashed with the declaration's version); the reviewer
// re-authenticates (policy.stepUp) and approves; the shop carries it out once. A changed quote or a new version
// invalidates; a retired declaration's tool is gone; another tenant's declaration is invisible; a private address, a
// 10 MB answer or a missing field refuses the prepare with its code; the audit rows never hold a non-clear value.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as mcpPOST } from "@/app/api/mcp/route";
import { GET as actionsGET, POST as actionsPOST } from "@/app/api/admin/actions/route";
import { GET as decisionGET, POST as decisionPOST } from "@/app/api/admin/actions/[id]/[decision]/route";
import { POST as toolCallsPOST } from "@/app/api/agent/tool-calls/route";
import { GET as toolsGET } from "@/app/api/agent/tools/route";
import type { ShopControl } from "@/shop-sandbox/control-client";
import { executionStatus as E } from "@/lib/domain/execution-state";
import { storedProposalIntact } from "@/lib/domain/proposal-hash";
import { proposalStatus as P } from "@/lib/domain/proposal-state";
import {
  approveDeclaration,
  listDeclarations,
  proposeDeclaration,
  rejectDeclaration,
  retireDeclaration,
} from "@/lib/server/admin/action-declarations";
import { setActionEndpoint } from "@/lib/server/admin/action-endpoint/set-action-endpoint";
import { authenticateAgentKey, type AgentCaller } from "@/lib/server/agent/authenticate-agent-key";
import { executeToolCall } from "@/lib/server/agent/execute-tool-call";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { recordCustomerDecision } from "@/lib/server/confirmations/record-customer-decision";
import { getProposal } from "@/lib/server/proposals/get-proposal";
import { isRefundDetail } from "@/lib/schemas/proposal-page";
import { stopProposalChanges } from "@/lib/server/realtime/proposal-changes";
import { actorFor, staffOf } from "../support/actors";
import { startShopBehindEndpoint } from "../support/address-change-shop";
import { STORE_CREDIT, declareActive, storeCreditSpec, twoAdmins } from "../support/declared-actions";
import { refusal } from "../support/refusal";
import { runJobsOnce } from "../support/run-jobs-once";
import {
  ES,
  US,
  ana,
  anthropicCall,
  communityKey,
  freshTrace,
  headersFor,
  john,
  tokenFor,
  webKey,
} from "./gateway-support";

// The admin routes' session: the staff wrapper asks requireActor(); here it answers the actor a case chose (the use
// cases below take their actor directly).
let routeActor: Actor | null = null;
vi.mock("@/lib/server/auth/actor", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/server/auth/actor")>()),
  requireActor: async () => {
    if (!routeActor) throw new Error("no route actor");
    return routeActor;
  },
}));

const KIND = "declared_action";
let stopShop: (() => Promise<void>) | undefined;
let control: ShopControl;
const callers: Record<string, AgentCaller> = {};
let seq = 0;

/** shop-us's endpoint: a server of this file answering the derive requests of its declarations. */
let fake: Server;
const fakeSent = { huge: 0, hugeClosed: false, actions: 0, quotes: 0 };
/** `/slow` answers a full quote once the case calls `answer()`; `asked` resolves when the request arrived. */
let slow: { asked: Promise<void>; arrived: () => void; answer: () => void; held: Promise<void> } | null = null;
function holdSlowQuotes() {
  let arrived = () => {};
  let answer = () => {};
  const asked = new Promise<void>((r) => (arrived = r));
  const held = new Promise<void>((r) => (answer = r));
  slow = { asked, arrived, answer, held };
  return slow;
}

async function call(tenant: string, name: string, args: unknown, customer = tenant === ES ? ana : john) {
  return executeToolCall(
    callers[tenant]!,
    {
      traceId: `declared-${randomUUID()}`,
      transport: "anthropic",
      callId: `toolu_d${++seq}`,
      endUserToken: await tokenFor(tenant, customer),
      model: null,
      promptVersion: null,
    },
    name,
    args,
  );
}

function resultOf(outcome: { code: string }): Record<string, unknown> {
  if (!("result" in outcome)) throw new Error(`expected a result, got ${JSON.stringify(outcome)}`);
  return outcome.result as Record<string, unknown>;
}

/** A fresh order the shop knows, bought by a person with a name unique to the test (searched in the audit rows). */
async function shopOrder(totalMinor = 2_500) {
  const number = `ORD-S${Date.now().toString(36)}${++seq}`.toUpperCase();
  const buyer = `Zoe Quintero ${randomUUID().slice(0, 8)}`;
  await control.setOrder(number, { customerName: buyer, totalMinor, currency: "EUR" });
  return { number, buyer };
}

/** AuditEvent rows, read raw (every column as text), that contain `value`. */
async function auditRowsContaining(value: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM "AuditEvent" a WHERE strpos(lower(a::text), lower(${value})) > 0`.execute(sqlPool());
  return rows[0]!.n;
}

const toolNamesOf = async (tenant: string, format: string) => {
  const res = await toolsGET(
    new Request(`http://localhost/api/agent/tools?format=${format}`, {
      headers: { authorization: `Bearer ${webKey(tenant)}` },
    }),
  );
  return ((await res.json()) as { tools: Record<string, unknown>[] }).tools;
};

async function mcpClient(tenant: string, token: string | null) {
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/api/mcp"), {
    requestInit: { headers: headersFor({ key: webKey(tenant), token, trace: freshTrace() }) },
    fetch: async (url, init) => mcpPOST(new Request(url, init)),
  });
  const client = new McpClient({ name: "declared-actions-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

let admin: Actor;
let second: Actor;

beforeAll(async () => {
  ({ control, stop: stopShop } = await startShopBehindEndpoint(ES));
  ({ admin, second } = await twoAdmins(ES));
  for (const tenant of [ES, US]) {
    const { id: tenantId } = await db().tenant.findUniqueOrThrow({ where: { slug: tenant } });
    const unlimited = { maxCallsPerKeyPerWindow: 1_000_000, maxCallsPerEndUserPerWindow: 1_000_000 };
    await db().agentBudgetPolicy.upsert({ where: { tenantId }, create: { tenantId, ...unlimited }, update: unlimited });
    const auth = await authenticateAgentKey(`Bearer ${webKey(tenant)}`);
    if (!auth.ok) throw new Error(`demo agent key of ${tenant} refused`);
    callers[tenant] = auth.caller;
  }
  // shop-us's endpoint: this file's server (its actions route is never reached; only derive paths are asked).
  fake = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    if (url.pathname === "/huge") {
      // 10 MB of JSON, written as the reader takes it: the gateway must stop reading (and close) long before.
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      res.on("close", () => (fakeSent.hugeClosed = true));
      const pump = () => {
        while (fakeSent.huge < 10 * 1024 * 1024 && !res.destroyed) {
          fakeSent.huge += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      return pump();
    }
    if (req.method === "POST" && url.pathname === "/actions") {
      fakeSent.actions += 1;
      req.resume();
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(JSON.stringify({ status: "succeeded", reference: `fake-${fakeSent.actions}` }));
    }
    if (url.pathname === "/slow") {
      fakeSent.quotes += 1;
      const hold = slow;
      const quote = JSON.stringify({ customer: { name: "Jo" }, credit: { amount_minor: 100, currency: "USD" } });
      if (!hold) return void res.writeHead(200, { "content-type": "application/json" }).end(quote);
      hold.arrived();
      slow = null; // one request held per hold
      return void hold.held.then(() => res.writeHead(200, { "content-type": "application/json" }).end(quote));
    }
    res.writeHead(200, { "content-type": "application/json" });
    // A quote without the credit's currency.
    res.end(JSON.stringify({ customer: { name: "Jo" }, credit: { amount_minor: 100 } }));
  });
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  const usAdmin = await actorFor(staffOf(US, "admin").email);
  await setActionEndpoint(usAdmin, { url: `http://127.0.0.1:${(fake.address() as AddressInfo).port}/actions` });
});

afterAll(async () => {
  await stopProposalChanges();
  await stopShop?.();
  await new Promise((resolve) => fake?.close(resolve));
});

describe("declaring an action", () => {
  it("a version waits for a second admin: the proposer cannot approve; an old sign-in must step up; the second admin activates it", async () => {
    const spec = storeCreditSpec({
      policy: { approvals: 1, stepUp: true, money: { amountKey: "amount", currencyKey: "currency" } },
    });
    const { declaration } = await proposeDeclaration(admin, { ...spec, stepUpPassword: undefined });
    expect(declaration).toMatchObject({
      name: STORE_CREDIT,
      version: 1,
      status: "pending",
      mine: true,
      approvalRefusal: "own_change",
    });
    // Pending: the agent does not see it.
    expect((await call(ES, STORE_CREDIT, { order_id: "ORD-1", reason: "late" })).outcome.code).toBe("unknown_tool");
    // A second pending version of the name is a conflict.
    expect(await refusal(proposeDeclaration(admin, spec))).toMatchObject({
      code: "rejected",
      reason: "declaration_pending",
    });
    // The proposer cannot approve their own version.
    expect(await refusal(approveDeclaration(admin, declaration.id, {}))).toMatchObject({
      code: "permission_denied",
      reason: "own_change",
    });
    // The second admin, signed in an hour ago, must re-authenticate.
    const stale = await actorFor(staffOf(ES, "auditor").email, { authAgoSeconds: 3600 });
    expect(await refusal(approveDeclaration(stale, declaration.id, {}))).toMatchObject({ reason: "step_up_required" });
    const listed = (await listDeclarations(second)).data.find((r) => r.id === declaration.id);
    expect(listed).toMatchObject({
      status: "pending",
      mine: false,
      approvalRefusal: null,
      proposedBy: { email: staffOf(ES, "admin").email },
    });
    expect(await approveDeclaration(second, declaration.id, {})).toEqual({ status: "active" });
    const row = await db().actionDeclaration.findUniqueOrThrow({ where: { id: declaration.id } });
    expect(row).toMatchObject({ status: "active", decidedById: second.userId });
    // Audited: the proposal and the approval, each with the declaration's name and version.
    const events = await db().auditEvent.findMany({
      where: { action: { in: ["admin:declare_action", "admin:approve_declared_action"] }, tenantId: admin.tenantId },
    });
    expect(events.map((e) => e.action).sort()).toEqual(["admin:approve_declared_action", "admin:declare_action"]);
  });

  it("refuses a built-in tool's name and a declaration out of bounds, naming the field; nothing is stored", async () => {
    const before = await db().actionDeclaration.count();
    expect(await refusal(proposeDeclaration(admin, storeCreditSpec({ name: "prepare_refund" })))).toMatchObject({
      code: "invalid_arguments",
    });
    expect(
      await refusal(
        proposeDeclaration(admin, storeCreditSpec({ name: "other_action", derive: { path: "/q?x={nope}" } })),
      ),
    ).toMatchObject({ code: "invalid_arguments" });
    expect(await db().actionDeclaration.count()).toBe(before);
  });
});

describe("the admin routes (the contract's HTTP shapes)", () => {
  const post = (path: string, body: unknown) =>
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { origin: "http://localhost", "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("POST 201 / 400 validation_failed / 409 conflict; GET lists; the proposer's approve is 403; GET on a decision is 405", async () => {
    routeActor = admin;
    const spec = storeCreditSpec({ name: "route_store_credit" });
    const bad = await actionsPOST(post("/api/admin/actions", { ...spec, fields: [] }), undefined);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      code: "validation_failed",
      error: { problems: expect.arrayContaining([expect.objectContaining({ path: "$.fields" })]) },
    });
    const created = await actionsPOST(post("/api/admin/actions", spec), undefined);
    expect(created.status).toBe(201);
    const { declaration } = (await created.json()) as { declaration: { id: string; status: string; version: number } };
    expect(declaration).toMatchObject({ status: "pending", version: 1 });
    const again = await actionsPOST(post("/api/admin/actions", spec), undefined);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: "conflict" });
    const listed = (await (await actionsGET(new Request("http://localhost/api/admin/actions"), undefined)).json()) as {
      data: { id: string; mine: boolean }[];
    };
    expect(listed.data.find((r) => r.id === declaration.id)).toMatchObject({ mine: true });
    const params = (decision: string) => ({ params: Promise.resolve({ id: declaration.id, decision }) });
    const own = await decisionPOST(post(`/api/admin/actions/${declaration.id}/approve`, {}), params("approve"));
    expect(own.status).toBe(403);
    expect(await own.json()).toMatchObject({ code: "permission_denied", error: { reason: "own_change" } });
    routeActor = second;
    const approved = await decisionPOST(post(`/api/admin/actions/${declaration.id}/approve`, {}), params("approve"));
    expect(await approved.json()).toEqual({ status: "active" });
    const retired = await decisionPOST(post(`/api/admin/actions/${declaration.id}/retire`, {}), params("retire"));
    expect(await retired.json()).toEqual({ status: "retired" });
    expect(decisionGET(new Request("http://localhost/api/admin/actions/x/approve")).status).toBe(405);
    routeActor = null;
  });
});

describe("the declared tool", () => {
  it("is listed in every vendor format and MCP, strict; only to its tenant; callable over HTTP and MCP", async () => {
    for (const format of ["anthropic", "openai", "openai_chat"]) {
      const tools = await toolNamesOf(ES, format);
      const tool = tools.find((t) => JSON.stringify(t).includes(`"name":"${STORE_CREDIT}"`));
      expect(tool, format).toBeDefined();
      expect(JSON.stringify(tool)).toContain('"additionalProperties":false');
      expect(JSON.stringify(await toolNamesOf(US, format))).not.toContain(STORE_CREDIT);
    }
    const { number } = await shopOrder();
    const mcp = await mcpClient(ES, await tokenFor(ES, ana));
    const listed = (await mcp.listTools()).tools.find((t) => t.name === STORE_CREDIT);
    expect(listed?.inputSchema).toMatchObject({ required: ["order_id", "reason"], additionalProperties: false });
    const viaMcp = await mcp.callTool({ name: STORE_CREDIT, arguments: { order_id: number, reason: "late" } });
    expect(viaMcp.structuredContent).toMatchObject({ code: "approval_required", result: { kind: KIND } });
    await mcp.close();
    const usMcp = await mcpClient(US, await tokenFor(US, john));
    expect((await usMcp.listTools()).tools.map((t) => t.name)).not.toContain(STORE_CREDIT);
    await usMcp.close();

    const res = await toolCallsPOST(
      new Request("http://localhost/api/agent/tool-calls", {
        method: "POST",
        headers: {
          ...headersFor({ key: webKey(ES), token: await tokenFor(ES, ana), trace: freshTrace() }),
          "content-type": "application/json",
        },
        body: JSON.stringify(anthropicCall(STORE_CREDIT, { order_id: number, reason: "late" })),
      }),
    );
    const body = JSON.parse(((await res.json()) as { content: string }).content) as {
      code: string;
      result: { proposal_id: string };
    };
    // The same call again: the same pending proposal.
    expect(body).toMatchObject({ code: "approval_required" });
    expect(body.result.proposal_id).toBe(
      (viaMcp.structuredContent as { result: { proposal_id: string } }).result.proposal_id,
    );
    // A channel that prepares no action (community_chat: tickets only) is offered no declared tool, and cannot call it.
    const community = await toolsGET(
      new Request("http://localhost/api/agent/tools?format=anthropic", {
        headers: { authorization: `Bearer ${communityKey(ES)}` },
      }),
    );
    expect(JSON.stringify(await community.json())).not.toContain(STORE_CREDIT);
    const communityAuth = await authenticateAgentKey(`Bearer ${communityKey(ES)}`);
    if (!communityAuth.ok) throw new Error("community key refused");
    const viaCommunity = await executeToolCall(
      communityAuth.caller,
      {
        traceId: `declared-${randomUUID()}`,
        transport: "anthropic",
        callId: `toolu_d${++seq}`,
        endUserToken: null,
        model: null,
        promptVersion: null,
      },
      STORE_CREDIT,
      { order_id: number, reason: "late" },
    );
    expect(viaCommunity.outcome).toMatchObject({ code: "unknown_tool" });
    // Another tenant's agent cannot call it: as a tool that does not exist.
    expect((await call(US, STORE_CREDIT, { order_id: number, reason: "late" })).outcome).toMatchObject({
      code: "unknown_tool",
    });
    // The model cannot give a derived value: strict input.
    expect((await call(ES, STORE_CREDIT, { order_id: number, reason: "late", amount: 1 })).outcome).toMatchObject({
      code: "invalid_arguments",
      error: { problems: [{ path: "$.amount" }] },
    });
  });

  it("prepare → hashed params from the shop's answer; the reviewer must re-authenticate; executed once; the audit never holds the buyer's name", async () => {
    const { number, buyer } = await shopOrder(2_500);
    const { outcome, proposal } = await call(ES, STORE_CREDIT, { order_id: number, reason: "damaged" });
    const result = resultOf(outcome);
    expect(result).toMatchObject({
      kind: KIND,
      action: STORE_CREDIT,
      fields: { amount: 2_500, currency: "EUR", customer: buyer },
    });
    const row = await db().proposal.findUniqueOrThrow({ where: { id: proposal!.id } });
    expect(storedProposalIntact(row)).toBe(true);
    const declaration = await db().actionDeclaration.findFirstOrThrow({
      where: { tenantId: row.tenantId, name: STORE_CREDIT, status: "active" },
    });
    expect(row.params).toMatchObject({
      declaration: {
        id: declaration.id,
        name: STORE_CREDIT,
        version: declaration.version,
        execute: "issue_store_credit",
        stepUp: true,
      },
      input: { order_id: number, reason: "damaged" },
      fields: [
        { key: "customer", label: { en: "Customer", es: "Cliente" }, value: buyer, clear: false },
        { key: "amount", value: 2_500, clear: true },
        { key: "currency", value: "EUR", clear: true },
      ],
      sentence: { en: `Issue 2500 EUR of store credit to ${buyer}`, es: `Emitir 2500 EUR de saldo a ${buyer}` },
      money: { minor: 2_500, currency: "EUR" },
    });
    // The reviewer's page: the declared labels and the declared sentence, from the hashed params.
    const reviewer = await actorFor(staffOf(ES, "reviewer").email, { session: true });
    const page = await getProposal(reviewer, row.id);
    if (isRefundDetail(page)) throw new Error("not the kind's page");
    expect(page.review.fields[0]).toEqual({
      key: "customer",
      before: null,
      after: buyer,
      changed: false,
      label: { en: "Customer", es: "Cliente" },
    });
    // The declared sentence, ended as a sentence on the page (the hashed text itself is unchanged, above).
    expect(page.review.sentence).toMatchObject({
      text_en: `Issue 2500 EUR of store credit to ${buyer}.`,
      text_es: `Emitir 2500 EUR de saldo a ${buyer}.`,
    });
    // policy.stepUp: the open session's window does not approve; the password does.
    expect(await refusal(approveProposal(reviewer, { proposalId: row.id, hash: row.hash }))).toMatchObject({
      reason: "step_up_required",
    });
    const password = staffOf(ES, "reviewer").password;
    expect(
      await approveProposal(reviewer, { proposalId: row.id, hash: row.hash, stepUp: { method: "password", password } }),
    ).toMatchObject({ status: P.approved });
    await runJobsOnce();
    expect(await db().execution.findUniqueOrThrow({ where: { proposalId: row.id } })).toMatchObject({
      status: E.succeeded,
      attempts: 1,
    });
    const sent = (await control.actions({ orderNumber: (row.subject as { ref: string }).ref })).data;
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      kind: KIND,
      status: "succeeded",
      receipts: 1,
      request: {
        params: {
          action: "issue_store_credit",
          input: { order_id: number },
          fields: { amount: 2_500, currency: "EUR" },
        },
      },
    });
    // The buyer's name (a non-clear field) is nowhere in the audit table; the clear amount is.
    expect(await auditRowsContaining(buyer)).toBe(0);
    const prepared = await db().auditEvent.findFirstOrThrow({
      where: { proposalId: row.id, action: `tool:${STORE_CREDIT}` },
    });
    expect(JSON.stringify(prepared.data)).toContain('"value_in_clear":2500');
    expect(JSON.stringify(prepared.data)).toMatch(/"field":"customer","fingerprint":"fp:/);
  });

  it("a quote that changed before approval invalidates it (derived_changed); a new version invalidates too (declaration_changed)", async () => {
    const reviewer = await actorFor(staffOf(ES, "reviewer").email);
    const password = staffOf(ES, "reviewer").password;
    const stepUp = { method: "password" as const, password };
    const a = await shopOrder(3_000);
    const first = (await call(ES, STORE_CREDIT, { order_id: a.number, reason: "late" })).proposal!;
    // The shop not answering at approval: this try is refused (503), the proposal stays pending, nothing invalidated.
    const endpoint = await db().actionEndpoint.findUniqueOrThrow({ where: { tenantId: reviewer.tenantId } });
    await db().actionEndpoint.update({
      where: { tenantId: reviewer.tenantId },
      data: { url: "http://127.0.0.1:9/actions" },
    });
    try {
      expect(
        await refusal(approveProposal(reviewer, { proposalId: first.id, hash: first.hash, stepUp })),
      ).toMatchObject({
        code: "temporarily_unavailable",
        reason: "derive_unavailable",
      });
    } finally {
      await db().actionEndpoint.update({ where: { tenantId: reviewer.tenantId }, data: { url: endpoint.url } });
    }
    expect(await db().proposal.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({
      status: P.pendingApproval,
    });
    await control.setOrder(a.number, { totalMinor: 3_001 });
    expect(await refusal(approveProposal(reviewer, { proposalId: first.id, hash: first.hash, stepUp }))).toMatchObject({
      code: "invalidated",
    });
    expect(await db().proposal.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({
      status: P.invalidated,
      invalidationReason: "derived_changed",
    });

    const b = await shopOrder(1_000);
    const old = (await call(ES, STORE_CREDIT, { order_id: b.number, reason: "late" })).proposal!;
    const v2 = await proposeDeclaration(
      admin,
      storeCreditSpec({ description: "Issue store credit for an order (version two of the wording)." }),
    );
    await approveDeclaration(second, v2.declaration.id, {});
    expect(await refusal(approveProposal(reviewer, { proposalId: old.id, hash: old.hash, stepUp }))).toMatchObject({
      code: "invalidated",
    });
    expect(await db().proposal.findUniqueOrThrow({ where: { id: old.id } })).toMatchObject({
      invalidationReason: "declaration_changed",
    });
    expect(
      await db().actionDeclaration.count({
        where: { name: STORE_CREDIT, status: "superseded", tenantId: admin.tenantId },
      }),
    ).toBe(1);
  });

  it("a retired declaration's tool disappears: not listed, and a call is unknown_tool; a rejected version never appears", async () => {
    const spec = storeCreditSpec({
      name: "pause_subscription",
      derive: { path: "/store-credit/quote?order={order_id}" },
    });
    const id = await declareActive(ES, spec);
    expect(JSON.stringify(await toolNamesOf(ES, "anthropic"))).toContain("pause_subscription");
    expect(await retireDeclaration(admin, id, {})).toEqual({ status: "retired" });
    expect(JSON.stringify(await toolNamesOf(ES, "anthropic"))).not.toContain("pause_subscription");
    expect((await call(ES, "pause_subscription", { order_id: "ORD-1", reason: "late" })).outcome).toMatchObject({
      code: "unknown_tool",
    });
    const { declaration } = await proposeDeclaration(admin, spec);
    expect(await rejectDeclaration(second, declaration.id, "reject")).toEqual({ status: "rejected" });
    expect(JSON.stringify(await toolNamesOf(ES, "anthropic"))).not.toContain("pause_subscription");
  });
});

describe("the derive's limits (shop-us's endpoint is this file's server)", () => {
  beforeAll(async () => {
    await declareActive(US, storeCreditSpec({ name: "huge_quote", derive: { path: "/huge?order={order_id}" } }));
    await declareActive(US, storeCreditSpec({ name: "partial_quote", derive: { path: "/partial?order={order_id}" } }));
  });
  const countUs = async () => db().proposal.count({ where: { kind: KIND, tenant: { slug: US } } });

  it("an answer of 10 MB is refused (derive_too_large) without reading it: the connection is closed early", async () => {
    const before = await countUs();
    const { outcome, proposal } = await call(US, "huge_quote", { order_id: "ORD-1", reason: "late" });
    expect(outcome).toMatchObject({ code: "permission_denied", error: { reason: "derive_too_large" } });
    expect(proposal).toBeFalsy();
    await new Promise((r) => setTimeout(r, 200));
    expect(fakeSent.hugeClosed).toBe(true);
    expect(fakeSent.huge).toBeLessThan(10 * 1024 * 1024);
    expect(await countUs()).toBe(before);
  });

  it("an answer without a declared field is refused (derive_field_missing, naming the field); nothing stored", async () => {
    const before = await countUs();
    const { outcome, proposal } = await call(US, "partial_quote", { order_id: "ORD-1", reason: "late" });
    expect(outcome).toMatchObject({
      code: "permission_denied",
      error: { reason: "derive_field_missing", field: "currency" },
    });
    expect(proposal).toBeFalsy();
    expect(await countUs()).toBe(before);
  });

  it("a slow shop keeps no transaction open while it answers; a declaration retired meanwhile prepares nothing", async () => {
    const id = await declareActive(
      US,
      storeCreditSpec({ name: "slow_quote", derive: { path: "/slow?order={order_id}" } }),
    );
    const openTransactions = async () =>
      (
        await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND state LIKE 'idle in transaction%'`.execute(sqlPool())
      ).rows[0]!.n;
    const before = await countUs();

    // While the shop takes its time, the call holds no transaction (a pooled connection kept open would be one).
    let hold = holdSlowQuotes();
    let pending = call(US, "slow_quote", { order_id: "ORD-2", reason: "late" });
    await hold.asked;
    expect(await openTransactions()).toBe(0);
    hold.answer();
    const { outcome, proposal } = await pending;
    expect(outcome).toMatchObject({ code: "approval_required" });
    expect(proposal).toBeTruthy();
    expect(await countUs()).toBe(before + 1);

    // The approval's re-derive and the execution's run before the proposal's lock, holding nothing meanwhile too.
    const row = await db().proposal.findUniqueOrThrow({ where: { id: proposal!.id } });
    const reviewer = await actorFor(staffOf(US, "reviewer").email, { session: true });
    let quotes = fakeSent.quotes;
    // Another tenant's reviewer with this proposal's id: refused, and this tenant's shop is never asked.
    const foreign = await actorFor(staffOf(ES, "reviewer").email, { session: true });
    expect(await refusal(approveProposal(foreign, { proposalId: row.id, hash: row.hash }))).toMatchObject({
      code: "not_found",
    });
    expect(fakeSent.quotes).toBe(quotes);
    hold = holdSlowQuotes();
    const approving = approveProposal(reviewer, { proposalId: row.id, hash: row.hash });
    await hold.asked;
    expect(await openTransactions()).toBe(0);
    hold.answer();
    expect(await approving).toMatchObject({ status: P.approved });
    expect(fakeSent.quotes - quotes).toBe(1); // the one asked before the lock is the one compared under it
    quotes = fakeSent.quotes;
    hold = holdSlowQuotes();
    const executing = runJobsOnce();
    await hold.asked;
    expect(await openTransactions()).toBe(0);
    hold.answer();
    await executing;
    expect(await db().execution.findUniqueOrThrow({ where: { proposalId: row.id } })).toMatchObject({
      status: E.succeeded,
    });
    expect(fakeSent.actions).toBe(1);
    expect(fakeSent.quotes - quotes).toBe(1);
    // A proposal no longer awaiting approval is refused without asking the shop.
    quotes = fakeSent.quotes;
    expect(await refusal(approveProposal(reviewer, { proposalId: row.id, hash: row.hash }))).toMatchObject({
      code: "permission_denied",
    });
    expect(fakeSent.quotes).toBe(quotes);

    // A customer's confirmation (the tenant asks its customers to confirm declared actions too) likewise.
    await db().tenant.update({ where: { slug: US }, data: { customerConfirmationKinds: [KIND] } });
    try {
      const asked = await call(US, "slow_quote", { order_id: "ORD-4", reason: "late" });
      const url = String(resultOf(asked.outcome).confirm_url);
      const token = url.split("/confirm/")[1]!;
      quotes = fakeSent.quotes;
      hold = holdSlowQuotes();
      const confirming = recordCustomerDecision(
        token,
        { proposal_id: asked.proposal!.id, hash: asked.proposal!.hash, decision: "confirm", reason: null },
        null,
      );
      await hold.asked;
      expect(await openTransactions()).toBe(0);
      hold.answer();
      expect(await confirming).toMatchObject({ ok: true, outcome: "confirmed" });
      expect(fakeSent.quotes - quotes).toBe(1);
      // The link is spent: a replay is refused without asking the shop.
      quotes = fakeSent.quotes;
      expect(
        await recordCustomerDecision(
          token,
          { proposal_id: asked.proposal!.id, hash: asked.proposal!.hash, decision: "confirm", reason: null },
          null,
        ),
      ).toEqual({ ok: false, code: "link_used" });
      expect(fakeSent.quotes).toBe(quotes);
    } finally {
      await db().tenant.update({ where: { slug: US }, data: { customerConfirmationKinds: [] } });
    }

    // Retired while the shop answers: the transaction checks again, and nothing is prepared.
    hold = holdSlowQuotes();
    pending = call(US, "slow_quote", { order_id: "ORD-3", reason: "late" });
    await hold.asked;
    const { admin: usAdmin } = await twoAdmins(US);
    await retireDeclaration(usAdmin, id, {});
    hold.answer();
    const late = await pending;
    expect(late.outcome).toMatchObject({ code: "unknown_tool" });
    expect(late.proposal).toBeFalsy();
    expect(await countUs()).toBe(before + 2); // ORD-2's and ORD-4's proposals, none for ORD-3
  });

  it("an endpoint at a private address is refused (derive_refused) where internal addresses are not allowed", async () => {
    const saved = { mode: process.env.APP_MODE, allow: process.env.WEBHOOK_ALLOW_PRIVATE };
    process.env.APP_MODE = "production";
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    try {
      const { outcome, proposal } = await call(US, "partial_quote", { order_id: "ORD-1", reason: "late" });
      expect(outcome).toMatchObject({ code: "permission_denied", error: { reason: "derive_refused" } });
      expect(proposal).toBeFalsy();
    } finally {
      if (saved.mode === undefined) delete process.env.APP_MODE;
      else process.env.APP_MODE = saved.mode;
      if (saved.allow !== undefined) process.env.WEBHOOK_ALLOW_PRIVATE = saved.allow;
    }
  });
});
