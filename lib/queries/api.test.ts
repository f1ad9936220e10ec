// The client fetcher against a real HTTP server: answers are validated with the DTO schemas (zod/mini, a
// lazily loaded schema, or classic zod), drift and server errors become ApiErrors with stable codes;
// apiTyped reads an answer as its type (no schema) with the same error handling.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queuePageDto } from "@/lib/schemas/proposal-dto";
import { api, ApiError, apiTyped } from "./api";

const row = {
  id: "p1",
  hash: "h",
  orderNumber: "1001",
  amountMinor: 4999,
  currency: "USD",
  recipientKind: "card",
  recipientHolder: "Ada",
  recipientDisplay: "•••• 4242",
  kind: "refund",
  summary: null,
  reason: "damaged",
  channel: null,
  expiresAt: "2026-11-30T10:00:00.000Z",
  createdAt: "2026-11-30T09:00:00.000Z",
  approvals: 0,
  requiredApprovals: 1,
  flags: { duplicate: false, velocity: false, twoApprovals: false },
  previouslyRejected: null,
  approvedByMe: false,
  claim: null,
};
const answers: Record<string, [number, unknown]> = {
  "/ok": [200, { rows: [row], nextCursor: null }],
  "/drift": [200, { rows: [{ ...row, amountMinor: "49.99" }], nextCursor: null }],
  "/forbidden": [403, { code: "forbidden", error: { message: "Not allowed" } }],
};

let server: Server;
let base = "";
beforeAll(async () => {
  server = createServer((req, res) => {
    const [status, body] = answers[req.url ?? ""] ?? [404, {}];
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("api()", () => {
  it("returns an answer that matches its DTO schema", async () => {
    await expect(api(`${base}/ok`, queuePageDto)).resolves.toEqual(answers["/ok"]![1]);
  });

  it("loads a lazily referenced schema and validates with it", async () => {
    const page = await api(`${base}/ok`, () => import("@/lib/schemas/proposal-dto").then((m) => m.queuePageDto));
    expect(page.rows[0]?.amountMinor).toBe(4999);
  });

  it("rejects an answer that drifted from the contract, naming the field", async () => {
    for (const schema of [queuePageDto, () => Promise.resolve(queuePageDto)]) {
      const error = await api(`${base}/drift`, schema).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ code: "internal_error", status: 200 });
      expect((error as ApiError).details.problems).toEqual([expect.objectContaining({ path: "rows.0.amountMinor" })]);
    }
  });

  it("accepts classic zod schemas too", async () => {
    const classic = z.object({ rows: z.array(z.object({ id: z.string() })), nextCursor: z.string().nullable() });
    await expect(api(`${base}/ok`, classic)).resolves.toMatchObject({ rows: [{ id: "p1" }] });
    await expect(api(`${base}/drift`, z.object({ nextCursor: z.string() }))).rejects.toMatchObject({
      code: "internal_error",
    });
  });

  it("turns the server's error shape into an ApiError with its code and status", async () => {
    await expect(api(`${base}/forbidden`, queuePageDto)).rejects.toMatchObject({
      code: "forbidden",
      status: 403,
      message: "Not allowed",
    });
  });

  it("loads a lazily referenced schema alongside the request; a failed request stays an ApiError (no unhandled rejection)", async () => {
    let loaded = 0;
    const lazy = () => {
      loaded++;
      return Promise.reject(new Error("chunk failed"));
    };
    await expect(api(`${base}/forbidden`, lazy)).rejects.toMatchObject({ code: "forbidden", status: 403 });
    expect(loaded).toBe(1);
    await expect(api(`${base}/ok`, lazy)).rejects.toThrow("chunk failed");
  });
});

describe("apiTyped()", () => {
  it("returns the answer as it came (no schema: a drifted answer is not caught here)", async () => {
    await expect(apiTyped(`${base}/ok`)).resolves.toEqual(answers["/ok"]![1]);
    await expect(apiTyped(`${base}/drift`)).resolves.toEqual(answers["/drift"]![1]);
  });

  it("turns the server's error shape into an ApiError with its code and status, as api() does", async () => {
    await expect(apiTyped(`${base}/forbidden`)).rejects.toMatchObject({
      code: "forbidden",
      status: 403,
      message: "Not allowed",
    });
    await expect(apiTyped(`${base}/missing`)).rejects.toMatchObject({ code: "internal_error", status: 404 });
  });
});
