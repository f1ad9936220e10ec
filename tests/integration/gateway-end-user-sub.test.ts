// A validly signed end-user token whose `sub` holds a NUL byte or another control character (or a lone
// surrogate) is a malformed token: permission_denied with the stable reason, like every other bad token —
// never internal_error from a query that could not store the id.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { ana, anthropicCall, channelSecret, ES, freshTrace, headersFor, send, signToken } from "./gateway-support";

const secret = () => channelSecret(ES, "web_support");

async function callWithSub(tool: string, input: Record<string, unknown>, sub: string) {
  const trace = freshTrace();
  const token = await signToken({ sub, tenant: ES }, secret());
  const r = await send(anthropicCall(tool, input), headersFor({ token, trace }));
  const event = await db().auditEvent.findFirst({ where: { traceId: trace } });
  return {
    status: r.status,
    code: r.content.code,
    reason: r.content.error?.reason,
    problem: (event?.data as { end_user_problem?: string } | null)?.end_user_problem,
  };
}

describe("end-user token sub with control characters", () => {
  it.each([
    ["NUL", `${ana}\u0000`],
    ["NUL alone", "\u0000"],
    ["LF", `${ana}\nadmin`],
    ["TAB", `\t${ana}`],
    ["DEL", `${ana}\u007f`],
    ["C1", `${ana}\u0085`],
    ["lone surrogate", `${ana}\ud800`],
  ])("%s → permission_denied (end_user_token_malformed), audited", async (_, sub) => {
    for (const [tool, input] of [
      ["lookup_order", { order_id: "ORD-1001" }],
      ["prepare_refund", { order_id: "ORD-1001", reason: "damaged_item" }],
      ["create_support_ticket", { category: "billing", priority: "low", summary: "Where is my refund?" }],
    ] as const) {
      expect(await callWithSub(tool, input, sub)).toEqual({
        status: 200,
        code: "permission_denied",
        reason: "end_user_token_malformed",
        problem: "malformed",
      });
    }
  });

  it("a printable sub still works (the check refuses only what is broken)", async () => {
    expect((await callWithSub("lookup_order", { order_id: "ORD-1001" }, ana)).code).toBe("ok");
  });
});
