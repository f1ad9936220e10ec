// Customer confirmation where the tenant asks for both (docs/agent-api.md "Customer confirmation"): shop-us raises
// refunds to "the customer and a reviewer". The customer confirms on a phone through the link the agent was given;
// the reviewer then sees that confirmation on the proposal page and approves. A link posted for another proposal is
// refused and changes nothing.
// Runs alone (the serial project): it changes shop-us's policy for the length of the test.
import { expect, test } from "@playwright/test";
import { staff, useSession } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { agentCall, baseURL } from "./support/gateway";

const TENANT = "shop-us";
const setKinds = (kinds: string[]) =>
  withDb((c) => c.query(`UPDATE "Tenant" SET "customerConfirmationKinds" = $1 WHERE slug = $2`, [kinds, TENANT]));
const proposal = (id: string) =>
  withDb(
    async (c) =>
      (await c.query<{ status: string; hash: string }>(`SELECT status, hash FROM "Proposal" WHERE id = $1`, [id]))
        .rows[0]!,
  );

test("a refund that needs both: the customer confirms on a phone, the reviewer sees it and approves; a foreign link is refused", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await setKinds(["refund"]);
  try {
    const prepare = async (amount: number) => {
      const answer = await agentCall(TENANT, "prepare_refund", {
        order_id: await freshOrder(TENANT, amount),
        reason: "damaged_item",
      });
      expect(answer, JSON.stringify(answer)).toMatchObject({ code: "approval_required" });
      return { id: String(answer.result!.proposal_id), link: new URL(String(answer.result!.confirm_url)).pathname };
    };
    const a = await prepare(2_500);
    const b = await prepare(2_600);

    // A's link used to confirm B: refused, and neither proposal moves.
    const foreign = await page.request.post(`${a.link.replace("/confirm/", "/api/confirm/")}`, {
      form: { proposal_id: b.id, hash: (await proposal(b.id)).hash, decision: "confirm" },
      headers: { origin: new URL(baseURL).origin },
      maxRedirects: 0,
    });
    expect(foreign.status()).toBe(303);
    expect(foreign.headers().location).toContain("refused=link_other_proposal");
    expect((await proposal(a.id)).status).toBe("pending_approval");
    expect((await proposal(b.id)).status).toBe("pending_approval");

    // The reviewer first sees that the customer has not confirmed yet.
    const reviewer = staff(TENANT, "reviewer");
    await useSession(page, reviewer);
    await page.goto(`/proposals/${a.id}`);
    await expect(page.getByTestId("customer-confirmation")).toContainText(
      "Waiting for the customer to confirm on their link.",
    );

    // The customer confirms A on a phone: the refund, nothing else of the account.
    const phone = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, isMobile: true });
    const customer = await phone.newPage();
    await customer.goto(a.link);
    await expect(customer.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(customer.locator("main")).toContainText("$25.00");
    await customer.getByRole("button", { name: "Confirm" }).click();
    await expect(customer).toHaveURL(/\/confirm\/result\?outcome=confirmed&lang=en$/);
    await phone.close();
    // The customer's confirmation alone does not approve a refund that needs a reviewer too.
    expect((await proposal(a.id)).status).toBe("pending_approval");

    // The reviewer now reads the confirmation, then approves the exact proposal.
    await page.reload();
    await expect(page.getByTestId("customer-confirmation")).toContainText(
      "The customer confirmed this exact action on",
    );
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    const dialog = page.getByRole("dialog");
    const password = dialog.getByLabel("Password");
    if (await password.count()) await password.fill(reviewer.password);
    await dialog.getByRole("button", { name: "Approve refund" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Approved." }).first()).toBeVisible();
    await expect.poll(async () => (await proposal(a.id)).status, { timeout: 30_000 }).not.toBe("pending_approval");
  } finally {
    await setKinds([]);
  }
});
