// Floods: bad keys are counted per client address and minute in PostgreSQL (one audit event per
// window and source), a flooding source is throttled with 429, no body is read before the key is verified,
// and every agent route caps its body while it streams.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as toolCallsPOST } from "@/app/api/agent/tool-calls/route";
import { GET as toolsGET } from "@/app/api/agent/tools/route";
import { POST as mcpPOST } from "@/app/api/mcp/route";
import { POST as webhookPOST } from "@/app/api/payments/webhook/route";
import { db } from "@/lib/server/db/client";
import { REFUSAL_LIMITS, clientSource, purgeKeyRefusalWindows } from "@/lib/server/agent/record-key-refusal";
import { anthropicCall, headersFor, webKey } from "./gateway-support";

afterEach(async () => {
  await db().agentKeyRefusalWindow.deleteMany({});
});

// Windows are calendar minutes: start each counting test well inside one, so it cannot straddle two.
beforeEach(async () => {
  const second = new Date().getUTCSeconds();
  if (second >= 45) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
});

const badKeyCall = (ip: string, key = "agk_wrong_key_000000000000") =>
  toolCallsPOST(
    new Request("http://localhost/api/agent/tool-calls", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify(anthropicCall("lookup_order", { order_id: "ORD-1001" })),
    }),
  );

const refusalEvents = () => db().auditEvent.count({ where: { action: "agent:key_refused" } });

describe("refused keys are counted windows, not one audit event per request", () => {
  it(`${REFUSAL_LIMITS.perSource} bad-key requests from one address → 401s, one audit event, one counted window; then 429`, async () => {
    const before = await refusalEvents();
    const statuses: number[] = [];
    for (let i = 0; i < REFUSAL_LIMITS.perSource; i++) statuses.push((await badKeyCall("203.0.113.7")).status);
    expect(new Set(statuses)).toEqual(new Set([401]));
    expect((await refusalEvents()) - before).toBe(1);
    const row = await db().agentKeyRefusalWindow.findFirstOrThrow({ where: { source: "203.0.113.7" } });
    expect(row).toMatchObject({ count: REFUSAL_LIMITS.perSource, reasons: ["unknown"] });
    const event = await db().auditEvent.findFirstOrThrow({
      where: { action: "agent:key_refused" },
      orderBy: { occurredAt: "desc" },
    });
    expect(event.data).toMatchObject({ reason: "unknown", source: "203.0.113.7", route: "tool-call" });

    const throttled = await badKeyCall("203.0.113.7");
    expect(throttled.status).toBe(429);
    const retryAfter = Number(throttled.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await throttled.json()).toMatchObject({
      code: "limit_exceeded",
      error: { retry_after_seconds: retryAfter },
    });
    expect((await refusalEvents()) - before).toBe(1);

    // Another address is not throttled, and gets its own (single) event.
    expect((await badKeyCall("198.51.100.20")).status).toBe(401);
    expect((await refusalEvents()) - before).toBe(2);
    // A valid key from the throttled address still works: only bad keys are throttled.
    const good = await toolCallsPOST(
      new Request("http://localhost/api/agent/tool-calls", {
        method: "POST",
        headers: { ...headersFor(), "content-type": "application/json", "x-forwarded-for": "203.0.113.7" },
        body: JSON.stringify(
          anthropicCall("create_support_ticket", {
            category: "billing",
            summary: "A question about my bill",
            priority: "low",
          }),
        ),
      }),
    );
    expect(good.status).toBe(200);
  });

  it("parallel bad-key requests from one address write exactly one event (atomic upsert)", async () => {
    const before = await refusalEvents();
    const statuses = (await Promise.all(Array.from({ length: 12 }, () => badKeyCall("192.0.2.44")))).map(
      (r) => r.status,
    );
    expect(statuses.every((s) => s === 401)).toBe(true);
    expect((await refusalEvents()) - before).toBe(1);
    expect((await db().agentKeyRefusalWindow.findFirstOrThrow({ where: { source: "192.0.2.44" } })).count).toBe(12);
  });

  it("rotating (spoofed) addresses: every refusal counts in the global row, and audit events stop after the per-window source cap", async () => {
    const before = await refusalEvents();
    const n = REFUSAL_LIMITS.maxAuditedSources + 10;
    for (let i = 0; i < n; i++) await badKeyCall(`10.9.${Math.floor(i / 250)}.${i % 250}`);
    expect((await refusalEvents()) - before).toBe(REFUSAL_LIMITS.maxAuditedSources);
    expect((await db().agentKeyRefusalWindow.findFirstOrThrow({ where: { source: "*" } })).count).toBe(n);
  });

  it("every agent route counts refusals: tools list and MCP", async () => {
    await toolsGET(
      new Request("http://localhost/api/agent/tools", {
        headers: { authorization: "Bearer agk_wrong_key_000000000000", "x-forwarded-for": "192.0.2.99" },
      }),
    );
    await mcpPOST(
      new Request("http://localhost/api/mcp", {
        method: "POST",
        headers: {
          authorization: "Bearer agk_wrong_key_000000000000",
          "x-forwarded-for": "192.0.2.99",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: "{}",
      }),
    );
    expect((await db().agentKeyRefusalWindow.findFirstOrThrow({ where: { source: "192.0.2.99" } })).count).toBe(2);
  });

  it("the client source is the nearest X-Forwarded-For hop; anything but an address is one 'invalid' bucket", () => {
    expect(clientSource(new Headers({ "x-forwarded-for": "1.2.3.4, 203.0.113.9" }))).toBe("203.0.113.9");
    expect(clientSource(new Headers({ "x-real-ip": "2001:DB8::1" }))).toBe("2001:db8::1");
    expect(clientSource(new Headers({ "x-forwarded-for": "<script>" }))).toBe("invalid");
    expect(clientSource(new Headers())).toBe("unknown");
  });

  it("old refusal windows are purged", async () => {
    await db().agentKeyRefusalWindow.create({
      data: { windowStart: new Date(Date.now() - 2 * 86_400_000), source: "192.0.2.1", count: 9, reasons: ["unknown"] },
    });
    await db().agentKeyRefusalWindow.create({
      data: { windowStart: new Date(), source: "192.0.2.2", count: 1, reasons: ["unknown"] },
    });
    expect(await purgeKeyRefusalWindows()).toBe(1);
    expect((await db().agentKeyRefusalWindow.findMany()).map((r) => r.source)).toEqual(["192.0.2.2"]);
  });
});

/** A body stream that counts how much of it was pulled, and can be endless. */
function countingBody(totalBytes: number) {
  let pulled = 0;
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= totalBytes) return controller.close();
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}

const streamed = (url: string, headers: Record<string, string>, body: ReadableStream<Uint8Array>) =>
  new Request(url, { method: "POST", headers, body, duplex: "half" } as RequestInit);

describe("no body before the key; bodies capped while streaming", () => {
  it("a bad key: the body is not read at all", async () => {
    const body = countingBody(10 * 1024 * 1024);
    const res = await toolCallsPOST(
      streamed(
        "http://localhost/api/agent/tool-calls",
        { authorization: "Bearer agk_wrong_key_000000000000", "content-type": "application/json" },
        body.stream,
      ),
    );
    expect(res.status).toBe(401);
    // A ReadableStream pulls ahead once to fill its queue; beyond that nothing was read.
    expect(body.pulled()).toBeLessThanOrEqual(64 * 1024);
  });

  it("a 10 MB body with a valid key (no Content-Length) is refused with 413 after the cap, not buffered whole", async () => {
    const body = countingBody(10 * 1024 * 1024);
    const res = await toolCallsPOST(
      streamed(
        "http://localhost/api/agent/tool-calls",
        { authorization: `Bearer ${webKey()}`, "content-type": "application/json" },
        body.stream,
      ),
    );
    expect(res.status).toBe(413);
    expect(body.pulled()).toBeLessThan(1024 * 1024);
    const answer = (await res.json()) as { content: string };
    expect(JSON.parse(answer.content).code).toBe("invalid_arguments");
  });

  it("a declared Content-Length over the cap is refused before reading", async () => {
    const body = countingBody(10 * 1024 * 1024);
    const res = await toolCallsPOST(
      streamed(
        "http://localhost/api/agent/tool-calls",
        {
          authorization: `Bearer ${webKey()}`,
          "content-type": "application/json",
          "content-length": String(10 * 1024 * 1024),
        },
        body.stream,
      ),
    );
    expect(res.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(64 * 1024);
  });

  it("MCP and the provider webhook cap their bodies too", async () => {
    const mcpBody = countingBody(10 * 1024 * 1024);
    const mcp = await mcpPOST(
      streamed(
        "http://localhost/api/mcp",
        {
          authorization: `Bearer ${webKey()}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        mcpBody.stream,
      ),
    );
    expect(mcp.status).toBe(413);
    expect(mcpBody.pulled()).toBeLessThan(1024 * 1024);
    const hookBody = countingBody(10 * 1024 * 1024);
    const hook = await webhookPOST(
      streamed(
        "http://localhost/api/payments/webhook",
        { "stripe-signature": "t=1,v1=00", "content-type": "application/json" },
        hookBody.stream,
      ),
    );
    expect(hook.status).toBe(413);
    expect(hookBody.pulled()).toBeLessThan(1024 * 1024);
  });
});
