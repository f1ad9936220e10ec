// End-user tokens: `iat` required, a maximum age from tenant policy, an audience bound to the
// channel. Each refusal is permission_denied for the agent, with one instruction whatever the problem, and
// names the precise problem for the integrator (`reason: end_user_token_<problem>`) and in the audit trail.
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { endUserTokenAudience } from "@/lib/domain/agent-protocol";
import {
  ana,
  anthropicCall,
  channelSecret,
  ES,
  freshTrace,
  headersFor,
  send,
  signToken,
  tokenFor,
} from "./gateway-support";

const secret = () => channelSecret(ES, "web_support");
const now = () => Math.floor(Date.now() / 1000);

async function lookupWith(token: string) {
  const trace = freshTrace();
  const r = await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace }));
  const event = await db().auditEvent.findFirst({ where: { traceId: trace } });
  return {
    code: r.content.code,
    message: r.content.error?.message,
    reason: r.content.error?.reason,
    problem: (event?.data as { end_user_problem?: string } | null)?.end_user_problem,
  };
}

afterEach(async () => {
  await db().tenant.update({ where: { slug: ES }, data: { endUserTokenMaxAgeSeconds: 3600 } });
});

describe("end-user tokens", () => {
  it("the demo integration's token (sub, tenant, aud, iat, exp) is accepted", async () => {
    expect((await lookupWith(await tokenFor(ES, ana))).code).toBe("ok");
    expect((await lookupWith(await signToken({ sub: ana, tenant: ES }, secret()))).code).toBe("ok");
  });

  it("a token without iat or without aud is refused", async () => {
    expect(await lookupWith(await signToken({ sub: ana, tenant: ES, iat: null }, secret()))).toMatchObject({
      code: "permission_denied",
      reason: "end_user_token_malformed",
      problem: "malformed",
    });
    expect(await lookupWith(await signToken({ sub: ana, tenant: ES, aud: null }, secret()))).toMatchObject({
      code: "permission_denied",
      problem: "malformed",
    });
  });

  it("a token for another channel (audience) is refused, even signed with this channel's secret", async () => {
    const token = await signToken({ sub: ana, tenant: ES, aud: endUserTokenAudience(ES, "community_chat") }, secret());
    expect(await lookupWith(token)).toMatchObject({ code: "permission_denied", problem: "wrong_audience" });
    const otherTenant = await signToken(
      { sub: ana, tenant: ES, aud: endUserTokenAudience("shop-us", "web_support") },
      secret(),
    );
    expect(await lookupWith(otherTenant)).toMatchObject({ code: "permission_denied", problem: "wrong_audience" });
  });

  it("a token older than the tenant's maximum age is refused although its exp is far away", async () => {
    const old = await signToken({ sub: ana, tenant: ES, iat: now() - 2 * 3600 }, secret(), now() + 30 * 86_400);
    expect(await lookupWith(old)).toMatchObject({ code: "permission_denied", problem: "too_old" });
  });

  it("the maximum age is the tenant's policy value", async () => {
    await db().tenant.update({ where: { slug: ES }, data: { endUserTokenMaxAgeSeconds: 60 } });
    expect(await lookupWith(await signToken({ sub: ana, tenant: ES, iat: now() - 120 }, secret()))).toMatchObject({
      code: "permission_denied",
      problem: "too_old",
    });
    expect((await lookupWith(await signToken({ sub: ana, tenant: ES, iat: now() - 30 }, secret()))).code).toBe("ok");
  });

  it("a token issued in the future is refused", async () => {
    const future = await signToken({ sub: ana, tenant: ES, iat: now() + 600 }, secret(), now() + 3600);
    expect(await lookupWith(future)).toMatchObject({ code: "permission_denied", problem: "issued_in_future" });
  });

  it("each problem gives the agent the same instruction and the integrator its own reason", async () => {
    const instruction =
      "The end user's identity could not be verified (the token is invalid or expired). Ask the customer to sign in again; do not retry.";
    const cases: [string, Promise<string>][] = [
      ["expired", signToken({ sub: ana, tenant: ES, iat: now() - 120 }, secret(), now() - 60)],
      ["too_old", signToken({ sub: ana, tenant: ES, iat: now() - 2 * 3600 }, secret(), now() + 86_400)],
      ["issued_in_future", signToken({ sub: ana, tenant: ES, iat: now() + 600 }, secret(), now() + 3600)],
      [
        "wrong_audience",
        signToken({ sub: ana, tenant: ES, aud: endUserTokenAudience(ES, "community_chat") }, secret()),
      ],
      ["bad_signature", signToken({ sub: ana, tenant: ES }, "not-the-channel-secret-000000000000")],
      [
        "wrong_tenant",
        signToken({ sub: ana, tenant: "shop-us", aud: endUserTokenAudience(ES, "web_support") }, secret()),
      ],
      ["malformed", Promise.resolve("not.a.jwt")],
      ["malformed", signToken({ sub: ana, tenant: ES, iat: null }, secret())],
    ];
    for (const [problem, token] of cases) {
      expect(await lookupWith(await token), problem).toEqual({
        code: "permission_denied",
        message: instruction,
        reason: `end_user_token_${problem}`,
        problem,
      });
    }
  });
});
