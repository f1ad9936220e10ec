import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { takenError } from "@/lib/domain/validation";
import { SIG_COSIGNATURE_V1, parseVkey } from "@/lib/domain/signed-note";
import { addWitnessInput } from "@/lib/schemas/admin";
import type { Actor } from "@/lib/server/auth/actor";
import { transactionUnlessTaken } from "@/lib/server/db/unique-violation";
import { webhookAllowPrivate } from "@/lib/server/env";
import { checkWebhookUrl } from "@/lib/server/notifications/webhook-url";
import { recordAdminEvent } from "../admin-audit";
import { lockTenantStaff } from "../admin-change-store";
import { webhookUrlRefused } from "../update-own-tenant";
import { parseForm } from "../zod-problem";
import { requireStepUp } from "@/lib/server/auth/require-step-up";

/**
 * Adds a witness to the admin's tenant (docs/admin-api.md "Witnesses"). One more party whose cosignature
 * can count tightens the policy, so it applies at once (removing one waits for a second admin). The vkey
 * must be a cosignature/v1 key named as the witness; the URL is checked like a webhook's (the sequencer
 * POSTs to it). Audited as `admin:add_witness`.
 */
export async function addWitness(actor: Actor, raw: unknown): Promise<{ id: string; name: string }> {
  assertCan(actor.roles, "admin:manage");
  const input = parseForm(addWitnessInput, raw);
  // Whose cosignature counts for the tenant's log: a step-up change.
  await requireStepUp(actor, input.stepUpPassword);
  let vkey;
  try {
    vkey = parseVkey(input.vkey);
  } catch (error) {
    throw new AppError(
      "invalid_arguments",
      `Not a witness key: ${error instanceof Error ? error.message : String(error)}.`,
      {
        field: "vkey",
        problem: "invalid",
      },
    );
  }
  if (vkey.type !== SIG_COSIGNATURE_V1)
    throw new AppError(
      "invalid_arguments",
      "A witness key is a cosignature/v1 vkey (its key starts with type 0x04), as `npm run witness` prints it.",
      {
        field: "vkey",
        problem: "type",
      },
    );
  if (vkey.name !== input.name)
    throw new AppError(
      "invalid_arguments",
      `The vkey is the key of "${vkey.name}": the witness's name must be the same.`,
      {
        field: "name",
        problem: "mismatch",
      },
    );
  const checked = checkWebhookUrl(input.url, { allowPrivate: webhookAllowPrivate() });
  if (!checked.ok)
    throw webhookUrlRefused(checked.problem, "A witness URL must be a public http(s) URL without credentials.");
  return transactionUnlessTaken(
    async (tx) => {
      await lockTenantStaff(tx, actor.tenantId);
      const row = await tx.auditWitness.create({
        data: { tenantId: actor.tenantId, name: vkey.name, vkey: vkey.text, url: checked.url.toString() },
      });
      await recordAdminEvent(tx, actor, {
        action: "add_witness",
        target: { kind: "witness", id: row.id, name: row.name },
        after: { vkey: row.vkey, url: row.url },
        clear: ["name", "vkey", "url"],
      });
      return { id: row.id, name: row.name };
    },
    () => takenError("name", "This tenant already has a witness of that name."),
  );
}
