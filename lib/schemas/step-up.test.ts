// One step-up rule: every input schema of a change made by signed-in staff (admin settings, credentials, their own
// passkeys) carries the one shared `stepUpPassword` field, so no route refuses it as an unknown field. A new input
// without it fails here; the only inputs without it are listed with the reason.
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import * as admin from "./admin";
import * as orders from "./orders-api";
import * as provider from "./provider-connection";
import * as tenantWebhooks from "./tenant-webhooks";
import { stepUpPassword } from "./step-up";

/** Inputs that are not a signed-in staff member's change. */
const without: Record<string, string> = {
  completeSetupInput: "the person is not signed in yet: the setup token is the proof",
  listStaffInput: "a read",
};

// orders-api.ts's other inputs are the Orders API's wire shapes, sent with an integration key, not by staff.
const inputs = Object.entries({
  ...admin,
  issueIntegrationKeyInput: orders.issueIntegrationKeyInput,
  ...provider,
  ...tenantWebhooks,
}).filter(
  ([name, value]) => name.endsWith("Input") && typeof value === "object" && value !== null && "safeParse" in value,
) as [string, z.ZodType][];

/** The object shape of a (possibly refined) zod object. */
const shapeOf = (schema: z.ZodType): Record<string, unknown> | undefined =>
  (schema as unknown as { shape?: Record<string, unknown> }).shape ??
  (schema as unknown as { def?: { in?: z.ZodType } }).def?.in?.["shape" as never];

describe("one stepUpPassword rule", () => {
  it("finds the inputs (the walk itself works)", () => {
    expect(inputs.map(([n]) => n)).toEqual(
      expect.arrayContaining([
        "addWitnessInput",
        "setDecisionWebhookInput",
        "issueIntegrationKeyInput",
        "inviteStaffInput",
      ]),
    );
  });

  it.each(inputs.filter(([n]) => !(n in without)))("%s carries the shared stepUpPassword", (_name, schema) => {
    expect(shapeOf(schema)?.stepUpPassword).toBe(stepUpPassword);
  });

  it("the listed exceptions exist and do not take it", () => {
    for (const name of Object.keys(without)) {
      const schema = inputs.find(([n]) => n === name)?.[1];
      expect(schema, name).toBeDefined();
      expect(shapeOf(schema!)?.stepUpPassword).toBeUndefined();
    }
  });
});
