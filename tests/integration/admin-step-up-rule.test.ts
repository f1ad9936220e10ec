// One stepUpPassword rule (issue #36 item 11): the admin routes that used to refuse `stepUpPassword` as an
// unknown field (witnesses, the witness quorum, a channel's decision webhook) take it like every other admin
// change, and ask for it when the sign-in is older than the step-up window — the same refusal, the same
// password check (a wrong one counts toward the lockout) as inviting staff or issuing a key.
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SIG_COSIGNATURE_V1, vkeyOf } from "@/lib/domain/signed-note";
import { setDecisionWebhook } from "@/lib/server/admin/set-decision-webhook";
import { addWitness } from "@/lib/server/admin/witnesses/add-witness";
import { setWitnessQuorum } from "@/lib/server/admin/witnesses/set-witness-quorum";
import { inviteStaff } from "@/lib/server/admin/invite-staff";
import { db } from "@/lib/server/db/client";
import { actorFor, staffOf } from "../support/actors";
import { refusal } from "../support/refusal";

const ES = "tienda-es";
const admin = staffOf(ES, "admin");
const fresh = () => actorFor(admin.email);
/** Signed in an hour ago: past every demo tenant's step-up window. */
const stale = () => actorFor(admin.email, { authAgoSeconds: 3600 });
const witness = (name: string) => ({
  name,
  vkey: vkeyOf(name, SIG_COSIGNATURE_V1, generateKeyPairSync("ed25519").publicKey),
  url: `http://127.0.0.1:7380/${name}`,
});
const channelId = async () =>
  (
    await db().channel.findFirstOrThrow({
      where: { tenant: { slug: ES }, slug: "web_support" },
      select: { id: true },
    })
  ).id;
const resetFailures = () =>
  db().staffUser.updateMany({ where: { email: admin.email }, data: { failedLoginCount: 0, lockedUntil: null } });

/** Each change that used to refuse the field, as a function of the actor and the extra body fields. */
const changes: [string, (actor: Awaited<ReturnType<typeof fresh>>, extra: object) => Promise<unknown>][] = [
  [
    "add a witness",
    (a, extra) => addWitness(a, { ...witness(`w${crypto.randomUUID().slice(0, 8)}.example`), ...extra }),
  ],
  ["set the witness quorum", (a, extra) => setWitnessQuorum(a, { quorum: 0, ...extra })],
  [
    "set a decision webhook",
    async (a, extra) =>
      setDecisionWebhook(a, await channelId(), { url: "https://hooks.example.com/decisions", ...extra }),
  ],
];

describe("one stepUpPassword rule", () => {
  it.each(changes)("%s: the field is accepted, not refused as unknown", async (_name, change) => {
    await expect(change(await fresh(), { stepUpPassword: admin.password })).resolves.toBeDefined();
  });

  it.each(changes)(
    "%s: a stale sign-in is asked for the password, refused with a wrong one, and passes with the right one",
    async (_name, change) => {
      const a = await stale();
      expect(await refusal(change(a, {}))).toMatchObject({ code: "permission_denied", reason: "step_up_required" });
      const wrong = await refusal(change(a, { stepUpPassword: "not-the-password" }));
      expect(wrong.code).toBe("permission_denied");
      expect((await db().staffUser.findFirstOrThrow({ where: { email: admin.email } })).failedLoginCount).toBe(1);
      await resetFailures();
      await expect(change(a, { stepUpPassword: admin.password })).resolves.toBeDefined();
    },
  );

  it("answers exactly like the changes that always asked (inviting staff)", async () => {
    const a = await stale();
    const invite = await refusal(inviteStaff(a, { email: `x${Date.now()}@tienda-es.test`, name: "X", roles: ["ops"] }));
    const addW = await refusal(addWitness(a, witness("same.example")));
    expect(addW).toEqual(invite);
    const wrongInvite = await refusal(
      inviteStaff(a, {
        email: `y${Date.now()}@tienda-es.test`,
        name: "Y",
        roles: ["ops"],
        stepUpPassword: "nope-nope",
      }),
    );
    await resetFailures();
    const wrongW = await refusal(addWitness(a, { ...witness("same2.example"), stepUpPassword: "nope-nope" }));
    await resetFailures();
    expect(wrongW).toEqual(wrongInvite);
  });
});
