// Messages that said something false or borrowed (issue #36 item 6): the admin API no longer tells an admin that
// "the server derives identity, amount, currency and recipient" (the agent's sentence), the agent still reads it.
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/domain/outcome";
import { createChannel } from "@/lib/server/admin/create-channel";
import { ES, anthropicCall, freshTrace, headersFor, send, tokenFor, ana } from "./gateway-support";
import { actorFor, staffOf } from "../support/actors";

async function problems(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return (error.details as { problems?: { path: string; message: string }[] }).problems;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("unknown fields", () => {
  it("the admin API: 'Only the listed fields are accepted.', no word about what the agent gateway derives", async () => {
    const admin = await actorFor(staffOf(ES, "admin").email);
    const found = await problems(
      createChannel(admin, { slug: "phone_bot", name: "Phone", allowedTools: ["lookup_order"], colour: "red" }),
    );
    expect(found).toEqual([
      {
        path: "$.colour",
        expected: "no such field",
        message: 'Unknown field "colour". Only the listed fields are accepted.',
      },
    ]);
  });

  it("the agent gateway keeps its sentence for a model that writes the amount itself", async () => {
    const token = await tokenFor(ES, ana);
    const r = await send(
      anthropicCall("prepare_refund", { order_id: "ORD-1001", reason: "damaged_item", amount: 1 }),
      headersFor({ token, trace: freshTrace() }),
    );
    expect(r.content.code).toBe("invalid_arguments");
    expect(JSON.stringify(r.content.error)).toContain(
      'Unknown field \\"amount\\". Only the listed fields are accepted; the server derives identity, amount, currency and recipient itself.',
    );
  });
});
