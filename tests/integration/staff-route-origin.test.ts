// The same-origin check of staff JSON routes believes X-Forwarded-Host only with TRUST_PROXY=1: without a
// proxy in front, anyone can send the header, and a cross-site request naming its own site there must not
// pass for same-site. (Without a session the request then stops at 401: the origin check came first.)
import { afterEach, describe, expect, it } from "vitest";
import { POST as rejectPOST } from "@/app/api/proposals/[id]/reject/route";

const ctx = { params: Promise.resolve({ id: "00000000-0000-4000-a000-000000000000" }) };
const crossSite = (headers: Record<string, string>) =>
  new Request("http://app.test/api/proposals/00000000-0000-4000-a000-000000000000/reject", {
    method: "POST",
    headers: { host: "app.test", "content-type": "application/json", ...headers },
    body: "{}",
  });

const saved = process.env.TRUST_PROXY;
afterEach(() => {
  if (saved === undefined) delete process.env.TRUST_PROXY;
  else process.env.TRUST_PROXY = saved;
});

describe("staff routes: same-origin check and X-Forwarded-Host", () => {
  it("without TRUST_PROXY a forged X-Forwarded-Host matching a foreign Origin is refused (403)", async () => {
    delete process.env.TRUST_PROXY;
    const res = await rejectPOST(
      crossSite({ origin: "http://evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" }),
      ctx,
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      code: "permission_denied",
      error: { message: "Cross-site request refused." },
    });
  });

  it("without TRUST_PROXY the Host header decides: our own Origin passes the check (then 401, no session)", async () => {
    delete process.env.TRUST_PROXY;
    expect(
      (await rejectPOST(crossSite({ origin: "http://app.test", "x-forwarded-host": "evil.example" }), ctx)).status,
    ).toBe(401);
  });

  it("with TRUST_PROXY=1 the proxy's X-Forwarded-Host is the host the browser used", async () => {
    process.env.TRUST_PROXY = "1";
    expect(
      (await rejectPOST(crossSite({ origin: "https://public.example", "x-forwarded-host": "public.example" }), ctx))
        .status,
    ).toBe(401);
    expect(
      (await rejectPOST(crossSite({ origin: "http://app.test", "x-forwarded-host": "public.example" }), ctx)).status,
    ).toBe(403);
  });

  it("a missing or opaque Origin is refused", async () => {
    delete process.env.TRUST_PROXY;
    expect((await rejectPOST(crossSite({}), ctx)).status).toBe(403);
    expect((await rejectPOST(crossSite({ origin: "null" }), ctx)).status).toBe(403);
  });
});
