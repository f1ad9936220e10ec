import { expect, test } from "@playwright/test";
import { BODY_LIMITS, bodyTooLargeProblem } from "../lib/config/body-limits";
import { postChunked } from "../scripts/lib/chunked-post";
import { useSession, staff } from "./support/auth";

// Against `next start`: every route that reads a body caps it while it streams. Bodies are sent chunked
// (no Content-Length to refuse them by) and much larger than the cap; the 413 must arrive while the client
// is still sending, in the common error shape (lib/config/body-limits.ts).
const HUGE = 256 * 1024 * 1024;

test.describe("oversized request bodies are refused while they stream", () => {
  test("next-auth's credentials callback (no session needed)", async ({ baseURL }) => {
    const res = await postChunked(`${baseURL}/api/auth/callback/credentials`, HUGE);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toEqual(bodyTooLargeProblem(BODY_LIMITS.auth));
    expect(res.bytesSent).toBeLessThan(HUGE);
  });

  test("a staff JSON route, signed in", async ({ page, baseURL }) => {
    await useSession(page, staff("shop-us", "reviewer"));
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const origin = new URL(baseURL!).origin;
    const res = await postChunked(`${origin}/api/proposals/00000000-0000-4000-a000-000000000000/reject`, HUGE, {
      headers: { cookie, origin, "content-type": "application/json" },
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toEqual(bodyTooLargeProblem(BODY_LIMITS.staffJson));
    expect(res.bytesSent).toBeLessThan(HUGE);
    // A body within the cap still reaches the use case (which refuses the unknown proposal as such).
    const small = await page.request.post(`/api/proposals/00000000-0000-4000-a000-000000000000/reject`, {
      headers: { origin },
      data: { customerMessage: "Not eligible." },
    });
    expect(small.status()).not.toBe(413);
  });

  test("a server action (a POST to a page)", async ({ baseURL }) => {
    const origin = new URL(baseURL!).origin;
    // proxy.ts refuses it from the first 64 KiB; Next.js copies at most proxyClientMaxBodySize (256 KiB) of a
    // page request's body for the proxy and discards the rest, but lets the client finish sending before the
    // proxy's answer goes out — so here only the answer and its shape are checked, with a 16 MB body.
    const res = await postChunked(`${origin}/sign-in`, 16 * 1024 * 1024, {
      headers: { origin, "next-action": "0".repeat(42), "content-type": "text/plain;charset=UTF-8" },
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toEqual(bodyTooLargeProblem(BODY_LIMITS.serverAction));
  });

  test("the instance still answers afterwards", async ({ request }) => {
    expect((await request.get("/api/health")).ok()).toBe(true);
  });
});
