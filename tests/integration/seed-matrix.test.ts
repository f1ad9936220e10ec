// The seed's test matrix ("Matriz de pruebas que sí puede bloquear una herramienta", seeds/002), one row per
// test, each asserting what the agent sees AND what the database holds. Everything is real: the gateway
// route, the approval and execution use cases, the reconciler, and the sandbox provider in its own process.
//
// | Caso                        | Preparación                                  | Ejecución permitida                      |
// | Pedido propio, rol válido   | Propuesta con importe de la base             | Solo tras aprobar la propuesta exacta    |
// | Pedido de otro tenant       | Rechazar sin filtrar datos del pedido        | Nunca                                    |
// | Importe enviado por el modelo | Ignorar/rechazar; calcular desde la base   | Nunca con importe no validado            |
// | Aprobación vencida          | Revalidar y generar otra propuesta           | No reutilizar la anterior                |
// | Dos solicitudes concurrentes | Misma operación lógica identificada         | Un único efecto externo                  |
// | Timeout del proveedor       | Estado pendiente de conciliación             | No reintentar a ciegas                   |
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxControl } from "@/provider-sandbox/control-client";
import { startSandboxProvider, type SandboxProvider } from "../support/sandbox-provider";
import { db } from "@/lib/server/db/client";
import { executeRefund } from "@/lib/server/executions/execute-refund";
import { reconcileExecution } from "@/lib/server/executions/reconcile-execution";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { actorFor, staffOf } from "../support/actors";
import { ES, US, ana, anthropicCall, freshTrace, headersFor, john, send, tokenFor, webKey } from "./gateway-support";
import { sandboxCardOrder } from "./proposal-support";

let sandbox: SandboxProvider;
let control: SandboxControl;

beforeAll(async () => {
  // No webhook receiver: every settlement in this suite is the executor's or the reconciler's own.
  sandbox = await startSandboxProvider({
    webhook: { url: "http://127.0.0.1:9/", secret: `whsec_${randomUUID().replace(/-/g, "")}` },
  });
  control = sandbox.control;
});

afterAll(async () => {
  await sandbox?.stop();
});

/** A fresh card order of Ana's whose payment intent exists at the sandbox. */
const freshOrder = (amountMinor: number) => sandboxCardOrder(control, amountMinor, "M");

const anaHeaders = async () => headersFor({ key: webKey(ES), token: await tokenFor(ES, ana), trace: freshTrace() });
const prepare = async (order: string, extra: Record<string, unknown> = {}) =>
  send(anthropicCall("prepare_refund", { order_id: order, reason: "damaged_item", ...extra }), await anaHeaders());
const status = async (id: string) =>
  (await send(anthropicCall("get_refund_status", { proposal_id: id }), await anaHeaders())).content;
const reviewer = (n = 0) => actorFor(staffOf(ES, "reviewer", n).email);
const refundsAt = async (pi: string) => (await control.counters()).paymentIntents[pi]?.refunds ?? 0;
const proposalRow = (id: string) => db().proposal.findUniqueOrThrow({ where: { id } });

describe("seed matrix", () => {
  it("Pedido propio, rol válido (own order, valid role): proposal with the database amount; executed only after approving the exact proposal", async () => {
    const o = await freshOrder(4_200);
    const a = await prepare(o.number);
    expect(a.content.code).toBe("approval_required");
    expect(a.body.is_error).toBe(false);
    const id = String(a.content.result!.proposal_id);
    expect(a.content.result!.amount).toEqual({ minor: 4_200, currency: "EUR" });
    const row = await proposalRow(id);
    expect(row).toMatchObject({
      status: "pending_approval",
      amountMinor: 4_200,
      currency: "EUR",
      recipientRef: o.pi,
      customerId: ana,
    });

    // Not approved → not executed.
    expect(await executeRefund(id)).toBe("not_approved");
    // An approval for a different hash (what the reviewer saw is not this proposal) is refused.
    await expect(approveProposal(await reviewer(), { proposalId: id, hash: "0".repeat(64) })).rejects.toThrow();
    expect((await proposalRow(id)).status).toBe("pending_approval");
    expect(await refundsAt(o.pi)).toBe(0);

    await approveProposal(await reviewer(), { proposalId: id, hash: row.hash });
    expect(await executeRefund(id)).toBe("sent");
    expect(await refundsAt(o.pi)).toBe(1);
    expect(await db().refund.findFirstOrThrow({ where: { orderId: o.orderId } })).toMatchObject({
      status: "succeeded",
      amountMinor: 4_200,
    });
    expect(await status(id)).toMatchObject({ code: "ok", result: { status: "succeeded" } });
  });

  it("Pedido de otro tenant (another tenant's order): refused without leaking the order's data; never executed", async () => {
    const usOrder = await db().order.findFirstOrThrow({ where: { tenant: { slug: US } }, include: { payments: true } });
    const before = await db().proposal.count({ where: { orderId: usOrder.id } });
    const foreign = await prepare(usOrder.number);
    const missing = await prepare("ORD-NOPE-404");
    expect(foreign.content.code).toBe("not_found");
    expect(foreign.body.is_error).toBe(true);
    // Indistinguishable from an order that does not exist: same message, no amount, customer or payment.
    expect(foreign.content.error!.message).toBe(missing.content.error!.message.replace("ORD-NOPE-404", usOrder.number));
    for (const leak of [
      String(usOrder.capturedMinor),
      usOrder.customerId,
      ...usOrder.payments.map((p) => p.display),
      "USD",
      john,
    ]) {
      expect(foreign.raw).not.toContain(leak);
    }
    const lookup = await send(anthropicCall("lookup_order", { order_id: usOrder.number }), await anaHeaders());
    expect(lookup.content.code).toBe("not_found");
    expect(await db().proposal.count({ where: { orderId: usOrder.id } })).toBe(before);
  });

  it("Importe enviado por el modelo (model-supplied amount): refused; the amount comes from the database; never executed unvalidated", async () => {
    const o = await freshOrder(3_100);
    const withAmount = await prepare(o.number, {
      amount: 1,
      currency: "EUR",
      recipient: "ES91 2100 0418 4502 0005 1332",
    });
    expect(withAmount.content.code).toBe("invalid_arguments");
    const paths = (withAmount.content.error!.problems as { path: string }[]).map((p) => p.path).sort();
    expect(paths).toEqual(["$.amount", "$.currency", "$.recipient"]);
    expect(await db().proposal.count({ where: { orderId: o.orderId } })).toBe(0);

    const clean = await prepare(o.number);
    expect(clean.content.result!.amount).toEqual({ minor: 3_100, currency: "EUR" });
    const row = await proposalRow(String(clean.content.result!.proposal_id));
    expect(row.amountMinor).toBe(3_100);
    // Even with a hand-lowered amount in the database, the stored hash no longer matches → not executed.
    await approveProposal(await reviewer(), { proposalId: row.id, hash: row.hash });
    await db().proposal.update({ where: { id: row.id }, data: { amountMinor: 1 } });
    expect(await executeRefund(row.id)).not.toBe("sent");
    expect(await refundsAt(o.pi)).toBe(0);
  });

  it("Aprobación vencida (expired approval): revalidated, a new proposal is generated; the old one is never reused", async () => {
    const o = await freshOrder(2_700);
    const first = await prepare(o.number);
    const oldId = String(first.content.result!.proposal_id);
    const old = await proposalRow(oldId);
    await approveProposal(await reviewer(), { proposalId: oldId, hash: old.hash });
    // The approval is older than the tenant allows by the time the worker runs.
    await db().approval.updateMany({
      where: { proposalId: oldId },
      data: { createdAt: new Date(Date.now() - 2 * 3600_000) },
    });
    expect(await executeRefund(oldId)).toBe("revalidation_failed");
    expect((await proposalRow(oldId)).status).toBe("expired");
    expect(await status(oldId)).toMatchObject({ code: "expired" });
    expect(await refundsAt(o.pi)).toBe(0);

    const again = await prepare(o.number);
    expect(again.content.code).toBe("approval_required");
    const newId = String(again.content.result!.proposal_id);
    expect(newId).not.toBe(oldId);
    expect(again.content.result!.hash).not.toBe(old.hash);
    // The new proposal records which one it replaces.
    expect(await proposalRow(newId)).toMatchObject({ status: "pending_approval", supersedesId: oldId });
    // The old proposal stays dead: approving or executing it does nothing.
    await expect(approveProposal(await reviewer(1), { proposalId: oldId, hash: old.hash })).rejects.toThrow();
    expect(await executeRefund(oldId)).not.toBe("sent");
    expect(await refundsAt(o.pi)).toBe(0);
  });

  it("Dos solicitudes concurrentes (two concurrent requests): one logical operation, a single external effect", async () => {
    const o = await freshOrder(1_900);
    // Eight simultaneous requests (eight conversations, so no per-trace repeat budget interferes).
    const headers = await Promise.all(Array.from({ length: 8 }, () => anaHeaders()));
    const answers = await Promise.all(
      headers.map((h) => send(anthropicCall("prepare_refund", { order_id: o.number, reason: "damaged_item" }), h)),
    );
    expect(new Set(answers.map((a) => a.content.code))).toEqual(new Set(["approval_required"]));
    const ids = new Set(answers.map((a) => String(a.content.result!.proposal_id)));
    expect(ids.size).toBe(1);
    expect(await db().proposal.count({ where: { orderId: o.orderId } })).toBe(1);
    const id = [...ids][0]!;
    await approveProposal(await reviewer(), { proposalId: id, hash: (await proposalRow(id)).hash });
    const runs = await Promise.all(Array.from({ length: 6 }, () => executeRefund(id).catch((e: unknown) => String(e))));
    expect(runs.filter((r) => r === "sent")).toHaveLength(1);
    expect(await db().execution.count({ where: { proposalId: id } })).toBe(1);
    expect(await refundsAt(o.pi)).toBe(1);
  });

  it("Timeout del proveedor (provider timeout after it accepted): pending reconciliation, reconciled once, never re-sent blindly", async () => {
    const o = await freshOrder(2_300);
    const a = await prepare(o.number);
    const id = String(a.content.result!.proposal_id);
    await approveProposal(await reviewer(), { proposalId: id, hash: (await proposalRow(id)).hash });
    await control.addFault({ kind: "accept_then_hang", paymentIntent: o.pi });
    expect(await executeRefund(id)).toBe("sent");
    // The outcome is unknown: the agent is told to wait, the database says so, the provider did commit.
    expect(await status(id)).toMatchObject({ code: "result_pending" });
    expect((await proposalRow(id)).status).toBe("needs_reconciliation");
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: id } });
    expect(ex.status).toBe("unknown");
    expect(await refundsAt(o.pi)).toBe(1);
    // Running the job again does not send again.
    expect(await executeRefund(id)).toBe("already_started");

    expect(await reconcileExecution(ex.id)).toBe("settled");
    expect(await reconcileExecution(ex.id)).toBe("already_settled");
    expect(await db().execution.findUniqueOrThrow({ where: { id: ex.id } })).toMatchObject({
      status: "succeeded",
      attempts: 1,
      reconciliations: 1,
    });
    expect(await refundsAt(o.pi)).toBe(1);
    expect((await proposalRow(id)).status).toBe("succeeded");
    expect(await status(id)).toMatchObject({ code: "ok", result: { status: "succeeded" } });
  });
});
