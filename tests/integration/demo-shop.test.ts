// The demo's wiring of the sandbox shop (scripts/lib/demo-shop.ts, demo-shop-endpoints.ts; scripts/start.ts runs
// them at every demo start): a demo tenant's action endpoint saved by its admin's use case once and kept at the next
// start, moved with its secret when the shop's port changes; the shop — a real process started with the argv and
// environment start.ts gives it — told the demo orders' fulfilment; an address change of a demo order, prepared by
// the demo agent through the gateway (its tool allowed by the fresh seed) and approved, carried out by that shop; and
// the demo queue's top-up making a mix of kinds where the tenant has an endpoint.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { shopControl, type ShopControl } from "@/shop-sandbox/control-client";
import { executionStatus } from "@/lib/domain/execution-state";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { db } from "@/lib/server/db/client";
import { withPgClient } from "@/lib/server/db/pg-client";
import { consentTo } from "../support/consent";
import { stopProposalChanges } from "@/lib/server/realtime/proposal-changes";
import { planDemoShops, demoShopArgs, demoShopEnv, tellShopDemoOrders } from "../../scripts/lib/demo-shop";
import { saveDemoActionEndpoints } from "../../scripts/lib/demo-shop-endpoints";
import { PENDING_PER_TENANT, topUpDemoProposals } from "../../scripts/lib/demo-pending";
import { demoNewKinds } from "../../scripts/lib/demo-pending-kinds";
import { declareDemoActions } from "../../scripts/lib/demo-declared-actions";
import { demoSegments } from "../../scripts/lib/demo-segments";
import { getProposal } from "@/lib/server/proposals/get-proposal";
import { isRefundDetail } from "@/lib/schemas/proposal-page";
import { demoNewAddresses, demoTenants } from "../../scripts/lib/demo-data";
import { actorFor, staffOf } from "../support/actors";
import { runJobsOnce } from "../support/run-jobs-once";
import { ES, US, ana, anthropicCall, headersFor, send, tokenFor } from "./gateway-support";

const serverUrl = inject("serverUrl");
const shopDb = `shop_sandbox_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
let shopUrl: string;
let control: ShopControl;
let shop: ChildProcess | null = null;
let secret: string;

const setEvents = async () => {
  const { id } = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
  return db().auditEvent.count({ where: { tenantId: id, action: "admin:set_action_endpoint" } });
};

beforeAll(async () => {
  process.env.SECRETS_KEY = randomBytes(32).toString("base64");
  const [plan] = (await planDemoShops({ serverUrl, env: { SHOP_SANDBOX_PORT: "0" } })).filter((p) => p.tenant === ES);
  const own = { ...plan!, databaseUrl: serverUrl.replace(/\/postgres$/, `/${shopDb}`) };
  shopUrl = own.url;
  const [saved] = await saveDemoActionEndpoints([{ tenant: ES, url: own.url }]);
  expect(saved).toMatchObject({ tenant: ES, url: `${own.url}/actions`, change: "set" });
  secret = saved!.secret;
  // The shop as start.ts runs it: its argv, its own environment (the secret and token, nothing of the app's).
  shop = spawn(process.execPath, demoShopArgs(own), {
    env: demoShopEnv(own, secret),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the shop did not start:\n${out}`)), 30_000);
    shop!.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("listening on")) {
        clearTimeout(timer);
        resolve();
      }
    });
    shop!.stderr!.on("data", (c: Buffer) => (out += c.toString()));
    shop!.once("exit", (code) => reject(new Error(`the shop exited with ${code}:\n${out}`)));
  });
  control = shopControl(own.url, own.controlToken);
});

afterAll(async () => {
  if (shop && shop.exitCode === null) {
    const exited = new Promise((resolve) => shop!.once("exit", resolve));
    shop.kill("SIGTERM");
    await exited;
  }
  delete process.env.SECRETS_KEY;
  await stopProposalChanges();
  await withPgClient(serverUrl, (a) => a.query(`DROP DATABASE IF EXISTS "${shopDb}" WITH (FORCE)`));
});

describe("the demo's sandbox shop behind a demo tenant's action endpoint", () => {
  it("is saved once by the admin's use case: the next start keeps it, a new port moves it with its secret", async () => {
    const before = await setEvents();
    const [kept] = await saveDemoActionEndpoints([{ tenant: ES, url: shopUrl }]);
    expect(kept).toMatchObject({ change: "kept", secret });
    expect(await setEvents()).toBe(before); // nothing written, nothing audited

    const [moved] = await saveDemoActionEndpoints([{ tenant: ES, url: "http://127.0.0.1:1" }]);
    expect(moved).toMatchObject({ change: "moved", url: "http://127.0.0.1:1/actions", secret });
    const [back] = await saveDemoActionEndpoints([{ tenant: ES, url: shopUrl }]);
    expect(back).toMatchObject({ change: "moved", url: `${shopUrl}/actions`, secret });
    expect(await setEvents()).toBe(before + 2);
  });

  it("tells the shop the demo orders it does not know, with their fulfilment and address; once", async () => {
    const orders = await db().order.count({ where: { tenant: { slug: ES } } });
    expect(await tellShopDemoOrders(process.env.DATABASE_URL!, ES, control)).toBe(orders);
    expect(await control.order("ORD-1004")).toMatchObject({ status: "shipped" }); // shipped in the demo data
    expect(await control.order("ORD-1001")).toMatchObject({
      status: "unfulfilled",
      shippingAddress: { name: "Ana García", line1: "Calle Mayor 1", postalCode: "28013", country: "ES" },
    });
    expect(await tellShopDemoOrders(process.env.DATABASE_URL!, ES, control)).toBe(0);
  });

  it("carries out an approved address change of a demo order, prepared by the demo agent through the gateway", async () => {
    const address = demoNewAddresses[ES]![0]!;
    const prepared = await send(
      anthropicCall("prepare_address_change", {
        order_id: "ORD-1002",
        new_address: { name: "Ana García", ...address },
      }),
      headersFor({ token: await tokenFor(ES, ana) }),
    );
    expect(prepared.content, JSON.stringify(prepared.content)).toMatchObject({ code: "approval_required" });
    const id = String(prepared.content.result!.proposal_id);
    const { hash } = await db().proposal.findUniqueOrThrow({ where: { id } });
    const reviewer = await actorFor(staffOf(ES, "reviewer").email);
    // The customer confirms (within the country an address change needs only them: docs/action-kinds.md).
    expect(await consentTo(reviewer, { id, hash })).toMatchObject({
      status: proposalStatus.approved,
    });
    await runJobsOnce();

    expect(await db().proposal.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: proposalStatus.succeeded,
    });
    const execution = await db().execution.findFirstOrThrow({ where: { proposalId: id } });
    expect(execution).toMatchObject({
      status: executionStatus.succeeded,
      actionReference: expect.stringMatching(/^adr_/),
    });
    const after = { line1: address.line1, line2: address.line2, postalCode: address.postal_code, country: "ES" };
    expect((await control.order("ORD-1002"))?.shippingAddress).toMatchObject(after);
    const ours = await db().order.findFirstOrThrow({ where: { number: "ORD-1002", tenant: { slug: ES } } });
    expect(ours.shippingAddress).toMatchObject(after);
    expect((await control.actions({ orderNumber: "ORD-1002" })).data).toHaveLength(1);
  });

  it("the demo queue's top-up mixes kinds where the tenant has an action endpoint, refunds only where not", async () => {
    const sendContent = async (body: unknown, headers: Record<string, string>) => (await send(body, headers)).content;
    // ES has an endpoint: its three, one of each newer kind (contact change, replacement, bulk message) and the
    // demo's declared store credit (declared as npm start's demo load does; the tests' template has none).
    await declareDemoActions(db());
    expect(await topUpDemoProposals(db(), sendContent)).toEqual({
      [ES]: PENDING_PER_TENANT + demoNewKinds.length + 1,
      [US]: PENDING_PER_TENANT,
    });
    const waiting = async (slug: string) =>
      db().proposal.findMany({
        where: { tenant: { slug }, status: proposalStatus.pendingApproval },
        select: { id: true, kind: true, requiredApprovals: true, order: { select: { number: true } } },
      });
    const es = await waiting(ES);
    expect(es.map((p) => p.kind).sort()).toEqual([
      "cancel_order",
      "change_shipping_address",
      "create_order",
      "declared_action",
      "refund",
      "send_bulk_message",
      "update_customer_contact",
    ]);
    expect(es.find((p) => p.kind === "refund")?.requiredApprovals).toBe(2);
    // Neither the first customer's orders nor the last one's (agent:demo acts for those).
    const t = demoTenants.find((d) => d.slug === ES)!;
    const reserved = [t.customers[0]!, t.customers.at(-1)!].flatMap((c) => c.orders.map((o) => o.number));
    expect(es.filter((p) => reserved.includes(p.order?.number ?? ""))).toEqual([]);
    expect((await waiting(US)).map((p) => p.kind)).toEqual(["refund", "refund", "refund"]);

    // Each newer kind's proposal is reviewable: its page (what /proposals/[id] reads) shows the kind's fields from
    // intact hashed params, and a reviewer may decide it.
    const reviewer = await actorFor(staffOf(ES, "reviewer").email);
    const page = async (kind: string) => {
      const p = await getProposal(reviewer, es.find((r) => r.kind === kind)!.id);
      if (isRefundDetail(p)) throw new Error(`${kind}: a refund's page`);
      expect(p, kind).toMatchObject({ kind, hashIntact: true, viewer: { canDecide: true } });
      return p;
    };
    const field = (p: Awaited<ReturnType<typeof page>>, key: string) => p.review.fields.find((f) => f.key === key);
    const contact = await page("update_customer_contact");
    expect(contact.review.fields.length).toBeGreaterThan(0);
    const replacement = await page("create_order");
    expect(field(replacement, "order")?.after).toMatch(/^ORD-3\d{3}$/);
    expect(field(replacement, "price")?.after).toContain("0.00");
    const bulk = await page("send_bulk_message");
    expect(field(bulk, "segment")?.after).toContain(demoSegments[ES]!.slug);
    expect(field(bulk, "text")?.after).toBe(demoSegments[ES]!.text);
    expect(Number(field(bulk, "recipients")?.after)).toBeGreaterThan(0);
    // The store credit's amount and buyer are the shop's quote, labelled as declared.
    const credit = await page("declared_action");
    expect(credit.review.fields.map((f) => f.key)).toEqual(["customer", "amount", "currency"]);
    expect(Number(field(credit, "amount")?.after)).toBeGreaterThan(0);
    expect(field(credit, "currency")?.after).toBe("EUR");

    // A restart adds nothing: every kind already has its proposal waiting.
    expect(await topUpDemoProposals(db(), sendContent)).toEqual({ [ES]: 0, [US]: 0 });
    // Once the bulk message is decided, the next start makes another one (and only that).
    await db().proposal.update({
      where: { id: es.find((r) => r.kind === "send_bulk_message")!.id },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    expect(await topUpDemoProposals(db(), sendContent)).toEqual({ [ES]: 1, [US]: 0 });
  });
});
