// npm run demo:credentials (docs/design.md "Demo data contract"): each demo tenant's Orders API key works for its
// own orders and sees nothing of the other tenant's; the running sandbox's URL and key are passed through as given.
import { describe, expect, it } from "vitest";
import { GET as orderGET } from "@/app/api/v1/orders/[number]/route";
import { demoCredentials } from "../../scripts/lib/demo-data";

const get = (key: string, number: string) =>
  orderGET(new Request(`http://localhost/api/v1/orders/${number}`, { headers: { authorization: `Bearer ${key}` } }), {
    params: Promise.resolve({ number }),
  });

describe("demo:credentials", () => {
  it("prints per tenant an integration key for its own orders only, and the running sandbox's URL and test key", async () => {
    const sandbox = { url: "http://127.0.0.1:12111", apiKey: "sk_test_run_key" };
    const { tenants } = await demoCredentials(sandbox);
    const es = tenants.find((t) => t.slug === "tienda-es")!;
    const us = tenants.find((t) => t.slug === "shop-us")!;
    expect(es.paymentProvider).toEqual(sandbox);
    expect(es.integrationKey).not.toBe(us.integrationKey);
    const own = await get(es.integrationKey, "ORD-1001");
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ number: "ORD-1001" });
    expect((await get(us.integrationKey, "ORD-1001")).status).toBe(404);
    expect((await demoCredentials()).tenants[0]).not.toHaveProperty("paymentProvider");
  });
});
