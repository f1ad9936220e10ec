// Refused agent keys are recorded as counted windows; admins see how many, in their own log
// (their tenant's revoked keys) and in the tenantless log (keys nobody has), without another tenant's detail.
import { describe, expect, it } from "vitest";
import { POST as toolCallsPOST } from "@/app/api/agent/tool-calls/route";
import { db } from "@/lib/server/db/client";
import { getChainStatus } from "@/lib/server/audit/get-chain-status";
import { ES, US, anthropicCall, webKey } from "./gateway-support";
import { actorOf } from "./audit-support";
import { sha256Hex } from "../../scripts/lib/demo-data";

const call = (key: string, ip: string) =>
  toolCallsPOST(
    new Request("http://localhost/api/agent/tool-calls", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify(anthropicCall("lookup_order", { order_id: "ORD-1001" })),
    }),
  );

describe("refused agent keys, as admins see them", () => {
  it("unknown keys count in the tenantless log, a tenant's revoked key in that tenant's own; only admins see them", async () => {
    const es = await actorOf(ES, "admin");
    const us = await actorOf(US, "admin");
    const before = { es: (await getChainStatus(es)).refusedKeys!, us: (await getChainStatus(us)).refusedKeys! };

    expect((await call("agk_nobody_has_this_key_0000000000000000", "198.51.100.20")).status).toBe(401);
    const afterUnknown = { es: (await getChainStatus(es)).refusedKeys!, us: (await getChainStatus(us)).refusedKeys! };
    expect(afterUnknown.es.unknownKeys).toBe(before.es.unknownKeys + 1);
    expect(afterUnknown.us.unknownKeys).toBe(before.us.unknownKeys + 1);
    expect(afterUnknown.es.ownKeys).toBe(before.es.ownKeys);

    // tienda-es revokes its web key; the next call with it is refused and counted in tienda-es's own log only.
    const key = webKey(ES);
    await db().agentKey.updateMany({ where: { keyHash: sha256Hex(key) }, data: { revokedAt: new Date() } });
    try {
      expect((await call(key, "198.51.100.21")).status).toBe(401);
      const afterRevoked = { es: (await getChainStatus(es)).refusedKeys!, us: (await getChainStatus(us)).refusedKeys! };
      expect(afterRevoked.es.ownKeys).toBe(before.es.ownKeys + 1);
      expect(afterRevoked.us.ownKeys).toBe(before.us.ownKeys);
    } finally {
      await db().agentKey.updateMany({ where: { keyHash: sha256Hex(key) }, data: { revokedAt: null } });
    }

    await expect(getChainStatus(await actorOf(ES, "reviewer"))).rejects.toMatchObject({ code: "permission_denied" });
  });
});
