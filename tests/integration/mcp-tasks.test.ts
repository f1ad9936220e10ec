// MCP tasks through the official SDK client (docs/agent-api.md "Waiting for a human"): a prepare tool called as a
// task answers with a task that stays `working` while a reviewer decides, and tasks/result gives the executed
// outcome with no tool re-called; a rejection ends the task `failed` with its envelope; tasks/cancel withdraws a
// pending proposal (audited) and is refused once it was approved; another key's task does not exist for a key;
// a tool that declares no task support is never run as one. Every request is its own stateless server (as on
// several instances): the task lives in PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { SandboxControl } from "@/provider-sandbox/control-client";
import { POST as mcpPOST } from "@/app/api/mcp/route";
import { proposalStatus as P } from "@/lib/domain/proposal-state";
import { db } from "@/lib/server/db/client";
import { executeRefund } from "@/lib/server/executions/execute-refund";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { rejectProposal } from "@/lib/server/proposals/reject-proposal";
import { WITHDRAWN } from "@/lib/server/agent/mcp-tasks";
import { actorFor, staffOf } from "../support/actors";
import { startSandboxProvider, type SandboxProvider } from "../support/sandbox-provider";
import { ES, US, ana, communityKey, freshTrace, headersFor, tokenFor, webKey } from "./gateway-support";
import { freshCardOrder, sandboxCardOrder } from "./proposal-support";

let sandbox: SandboxProvider;
let control: SandboxControl;
beforeAll(async () => {
  sandbox = await startSandboxProvider();
  control = sandbox.control;
});
afterAll(async () => {
  await sandbox?.stop();
});

const reviewer = () => actorFor(staffOf(ES, "reviewer").email);

/** An SDK client on the route; `methods` records every JSON-RPC method it sends. */
async function connect(headers: Record<string, string>) {
  const methods: string[] = [];
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/api/mcp"), {
    requestInit: { headers },
    fetch: async (url, init) => {
      if (typeof init?.body === "string") {
        const body = JSON.parse(init.body) as { method?: string };
        if (body.method) methods.push(body.method);
      }
      return mcpPOST(new Request(url, init));
    },
  });
  const client = new McpClient({ name: "mcp-tasks-test", version: "1.0.0" });
  await client.connect(transport);
  await client.listTools();
  return { client, methods };
}

const asAgent = async (tenant = ES, customer = ana) =>
  connect(headersFor({ key: webKey(tenant), token: await tokenFor(tenant, customer), trace: freshTrace() }));

/** A prepare_refund called as a task: the task it answered with. */
async function prepareAsTask(client: McpClient, order: string) {
  const created = await client.request(
    {
      method: "tools/call",
      params: {
        name: "prepare_refund",
        arguments: { order_id: order, reason: "damaged_item" },
        task: { ttl: 600_000 },
      },
    },
    CreateTaskResultSchema,
  );
  return created.task;
}

const proposalOfTask = async (taskId: string) =>
  (await db().mcpTask.findUniqueOrThrow({ where: { id: taskId } })).proposalId!;

describe("MCP tasks", () => {
  it("declares task support on the prepare tools only, and tasks in its capabilities", async () => {
    const { client } = await asAgent();
    const { tools } = await client.listTools();
    const by = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(by.prepare_refund!.execution).toEqual({ taskSupport: "optional" });
    expect(by.prepare_address_change?.execution ?? { taskSupport: "optional" }).toEqual({ taskSupport: "optional" });
    for (const readOnly of ["lookup_order", "get_refund_status", "get_action_status"])
      if (by[readOnly]) expect(by[readOnly].execution).toBeUndefined();
    expect(client.getServerCapabilities()?.tasks).toMatchObject({
      cancel: {},
      list: {},
      requests: { tools: { call: {} } },
    });
    await client.close();
  });

  it("a refund prepared as a task: working while a reviewer decides, then the executed outcome from tasks/result, with no tool re-called", async () => {
    const { number } = await sandboxCardOrder(control, 4_100, "MCPT");
    const { client, methods } = await asAgent();
    const seen: string[] = [];
    let result: { structuredContent?: unknown } | undefined;
    for await (const message of client.experimental.tasks.callToolStream(
      { name: "prepare_refund", arguments: { order_id: number, reason: "damaged_item" } },
      CallToolResultSchema,
      { task: { ttl: 600_000 } },
    )) {
      if (message.type === "taskCreated") {
        expect(message.task).toMatchObject({ status: "working", pollInterval: expect.any(Number) });
        seen.push("created");
      } else if (message.type === "taskStatus") {
        seen.push(message.task.status);
        if (message.task.status === "working" && seen.filter((s) => s === "working").length === 1) {
          expect(message.task.statusMessage).toBe("Awaiting a person's decision.");
          // The reviewer approves the exact proposal, and the refund is sent: the next poll finds it done.
          const p = await db().proposal.findUniqueOrThrow({ where: { id: await proposalOfTask(message.task.taskId) } });
          await approveProposal(await reviewer(), { proposalId: p.id, hash: p.hash });
          expect(await executeRefund(p.id)).toBe("sent");
        }
      } else if (message.type === "result") result = message.result;
      else throw message.error;
    }
    await client.close();
    expect(seen.at(-1)).toBe("completed");
    expect(result?.structuredContent).toMatchObject({ code: "ok", result: { status: P.succeeded } });
    // One tool call, then only task methods: the agent never re-called a tool to learn the outcome.
    expect(methods.filter((m) => m === "tools/call")).toHaveLength(1);
    expect(methods.filter((m) => m.startsWith("tasks/"))).toContain("tasks/result");
    // Polling a task is not a tool call: no audit event, no budget spent — one call on the trace.
    const trace = (await db().mcpTask.findFirstOrThrow({ where: { proposal: { order: { number } } } })).traceId;
    const calls = await db().auditEvent.findMany({ where: { traceId: trace, action: { startsWith: "tool:" } } });
    expect(calls.map((e) => e.action)).toEqual(["tool:prepare_refund"]);
  });

  it("a rejection ends the task failed, and tasks/result gives the rejection envelope with the customer's message", async () => {
    const { number } = await freshCardOrder(2_200, { prefix: "MCPR" });
    const { client } = await asAgent();
    const task = await prepareAsTask(client, number);
    const id = await proposalOfTask(task.taskId);
    const p = await db().proposal.findUniqueOrThrow({ where: { id } });
    await rejectProposal(await reviewer(), {
      proposalId: p.id,
      hash: p.hash,
      customerMessage: "This order is outside the refund window.",
    });
    const now = await client.experimental.tasks.getTask(task.taskId);
    expect(now.status).toBe("failed");
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: "rejected" });
    expect(JSON.stringify(result.structuredContent)).toContain("outside the refund window");
    await client.close();
  });

  it("tasks/cancel withdraws a pending proposal once, audited; after an approval it is refused and nothing changes", async () => {
    const { client } = await asAgent();
    const first = await prepareAsTask(client, (await freshCardOrder(1_500, { prefix: "MCPC" })).number);
    const withdrawnId = await proposalOfTask(first.taskId);
    expect((await client.experimental.tasks.cancelTask(first.taskId)).status).toBe("cancelled");
    const withdrawn = await db().proposal.findUniqueOrThrow({ where: { id: withdrawnId } });
    expect(withdrawn).toMatchObject({ status: P.invalidated, invalidationReason: WITHDRAWN });
    const events = await db().auditEvent.findMany({ where: { proposalId: withdrawnId, action: "proposal:withdraw" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorType: "agent", outcome: "ok", proposalHash: withdrawn.hash });
    await expect(client.experimental.tasks.cancelTask(first.taskId)).rejects.toThrow(McpError);

    const second = await prepareAsTask(client, (await freshCardOrder(1_600, { prefix: "MCPC" })).number);
    const approvedId = await proposalOfTask(second.taskId);
    const p = await db().proposal.findUniqueOrThrow({ where: { id: approvedId } });
    await approveProposal(await reviewer(), { proposalId: p.id, hash: p.hash });
    await expect(client.experimental.tasks.cancelTask(second.taskId)).rejects.toThrow(/no longer awaiting a decision/);
    expect((await db().proposal.findUniqueOrThrow({ where: { id: approvedId } })).status).toBe(P.approved);
    expect((await client.experimental.tasks.getTask(second.taskId)).status).toBe("working");
    await client.close();
  });

  it("another key's task does not exist: not readable, not listed, not cancellable — in the same tenant or another", async () => {
    const { client: owner } = await asAgent();
    const task = await prepareAsTask(owner, (await freshCardOrder(1_700, { prefix: "MCPI" })).number);
    expect((await owner.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toContain(task.taskId);
    await owner.close();
    const others = [
      connect(headersFor({ key: webKey(US), trace: freshTrace() })),
      connect(headersFor({ key: communityKey(ES), trace: freshTrace() })),
    ];
    for (const pending of others) {
      const { client } = await pending;
      await expect(client.experimental.tasks.getTask(task.taskId)).rejects.toThrow(/not found/i);
      await expect(client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).rejects.toThrow(
        /not found/i,
      );
      await expect(client.experimental.tasks.cancelTask(task.taskId)).rejects.toThrow(/not found/i);
      expect((await client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).not.toContain(task.taskId);
      await client.close();
    }
    const id = await proposalOfTask(task.taskId);
    expect((await db().proposal.findUniqueOrThrow({ where: { id } })).status).toBe(P.pendingApproval);
  });

  it("a task past its TTL is gone: not readable, not listed, not cancellable, and its proposal stays as it was", async () => {
    const { client } = await asAgent();
    const task = await prepareAsTask(client, (await freshCardOrder(1_800, { prefix: "MCPX" })).number);
    await db().mcpTask.update({ where: { id: task.taskId }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    await expect(client.experimental.tasks.getTask(task.taskId)).rejects.toThrow(/not found/i);
    await expect(client.experimental.tasks.cancelTask(task.taskId)).rejects.toThrow(/not found/i);
    expect((await client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).not.toContain(task.taskId);
    const id = await proposalOfTask(task.taskId);
    expect((await db().proposal.findUniqueOrThrow({ where: { id } })).status).toBe(P.pendingApproval);
    await client.close();
  });

  it("a refused prepare ends its task at once; a read-only tool is never run as a task", async () => {
    const { client, methods } = await asAgent();
    const refused = await prepareAsTask(client, "ORD-NOPE-404");
    expect(refused.status).toBe("failed");
    const result = await client.experimental.tasks.getTaskResult(refused.taskId, CallToolResultSchema);
    expect(result.structuredContent).toMatchObject({ code: "not_found" });

    const before = await db().auditEvent.count({ where: { action: "tool:lookup_order" } });
    await expect(
      client.request(
        { method: "tools/call", params: { name: "lookup_order", arguments: { order_id: "ORD-1001" }, task: {} } },
        CreateTaskResultSchema,
      ),
    ).rejects.toMatchObject({ code: -32601 });
    expect(await db().auditEvent.count({ where: { action: "tool:lookup_order" } })).toBe(before);
    expect(methods.filter((m) => m === "tools/call")).toHaveLength(2);
    await client.close();
  });
});
