import { expect, test, type CDPSession, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { signIn, staff } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { deriveApprovalChallenge } from "../lib/domain/passkey-challenge";
import { verifyPasskeyApproval } from "../lib/domain/verify-passkey-approval";
import { proposeRefund } from "./support/gateway";
import { hydrated } from "./support/ui";

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;

/** Chromium's virtual authenticator (CDP): a platform passkey with user verification, answering by itself. */
async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

test("a reviewer registers a passkey, approves with it despite a stale session, and the stored assertion verifies offline against the proposal hash", async ({
  page,
}) => {
  const reviewer = staff("tienda-es", "reviewer");
  await signIn(page, reviewer);
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);

  // Register, from the sidebar link.
  await (await hydrated(page.getByRole("link", { name: /^(Passkeys|Llaves de acceso)$/ }))).click();
  await expect(page).toHaveURL(/\/account\/passkeys$/);
  await page.getByLabel(/^(Name for the new passkey|Nombre de la nueva llave)/).fill("Portátil E2E");
  await page.getByRole("button", { name: /^(Register a passkey|Registrar una llave de acceso)$/ }).click();
  await expect(page.locator("main").getByRole("status")).toContainText("Portátil E2E");
  await expect(page.getByTestId("passkey-list")).toContainText("Portátil E2E");
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  const stored = await withDb(
    async (c) =>
      (
        await c.query(
          `SELECT pc.* FROM "PasskeyCredential" pc JOIN "StaffUser" s ON s.id = pc."staffUserId" WHERE s.email = $1`,
          [reviewer.email],
        )
      ).rows,
  );
  expect(stored).toHaveLength(1);
  expect(stored[0].id).toBe(Buffer.from(credentials[0]!.credentialId, "base64").toString("base64url"));
  const registered = await withDb(
    async (c) =>
      (
        await c.query(`SELECT outcome FROM "AuditEvent" WHERE action = 'auth:passkey_register' AND "actorId" = $1`, [
          stored[0].staffUserId,
        ])
      ).rows,
  );
  expect(registered.map((r) => r.outcome)).toEqual(["ok"]);

  // A proposal from the agent, and a session older than the tenant's step-up window (0 minutes here).
  const order = await freshOrder("tienda-es", 6_543); // its payment intent registered with the sandbox
  const proposalId = await proposeRefund("tienda-es", order);
  const proposal = await withDb(
    async (c) =>
      (await c.query(`SELECT id, hash, status FROM "Proposal" WHERE id = $1`, [proposalId])).rows[0] as {
        id: string;
        hash: string;
        status: string;
      },
  );
  await withDb((c) => c.query(`UPDATE "Tenant" SET "stepUpMinutes" = 0 WHERE slug = 'tienda-es'`));
  try {
    await page.waitForTimeout(1500);
    await page.goto(`/proposals/${proposalId}`);
    await page.getByRole("button", { name: /^(Approve|Aprobar)$/ }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByLabel(/^(Password|Contraseña)$/)).toBeVisible(); // step-up is due…
    await dialog.getByRole("button", { name: /^(Approve with passkey|Aprobar con llave de acceso)$/ }).click(); // …and the passkey answers it
    await expect(page.locator("main").getByRole("status")).toContainText(/^(Approved\.|Aprobada\.)/);
  } finally {
    await withDb((c) => c.query(`UPDATE "Tenant" SET "stepUpMinutes" = 5 WHERE slug = 'tienda-es'`));
  }

  const after = await withDb(
    async (c) => (await c.query(`SELECT status FROM "Proposal" WHERE id = $1`, [proposalId])).rows[0],
  );
  // The server's worker may already be executing it.
  expect(after.status).toMatch(/^(approved|executing|succeeded)$/);
  const approvals = await withDb(
    async (c) => (await c.query(`SELECT * FROM "Approval" WHERE "proposalId" = $1`, [proposalId])).rows,
  );
  expect(approvals).toHaveLength(1);
  const approval = approvals[0];
  expect(approval).toMatchObject({
    authMethod: "passkey",
    passkeyCredentialId: stored[0].id,
    proposalHash: proposal.hash,
  });
  const credential = await withDb(
    async (c) =>
      (await c.query(`SELECT * FROM "PasskeyCredential" WHERE id = $1`, [approval.passkeyCredentialId])).rows[0],
  );

  // The signed challenge is the one derived from the proposal's id and hash with the stored nonce.
  const evidence = approval.passkeyAssertion as { nonce: string; response: { response: { clientDataJSON: string } } };
  const clientData = JSON.parse(
    Buffer.from(evidence.response.response.clientDataJSON, "base64url").toString("utf8"),
  ) as {
    challenge: string;
    origin: string;
    type: string;
  };
  expect(clientData).toMatchObject({ type: "webauthn.get", origin: baseURL });
  expect(clientData.challenge).toBe(
    deriveApprovalChallenge({ proposalId: proposal.id, proposalHash: proposal.hash, nonce: evidence.nonce }),
  );

  // Offline: the stored assertion verifies with the stored public key; a changed hash does not.
  const check = {
    evidence,
    proposalId: proposal.id,
    publicKey: credential.publicKey,
    credentialId: credential.id,
    rpID: "localhost",
    origin: baseURL,
  };
  expect(await verifyPasskeyApproval({ ...check, proposalHash: proposal.hash })).toEqual({ verified: true });
  const changed = proposal.hash.replace(/^./, (ch) => (ch === "0" ? "1" : "0"));
  expect(await verifyPasskeyApproval({ ...check, proposalHash: changed })).toMatchObject({
    verified: false,
    reason: "challenge_mismatch",
  });
  // Another key cannot have made it either.
  const otherKey = {
    ...check,
    proposalHash: proposal.hash,
    // One character of the key changed, always to a different one (an "A" left in place would be the same key).
    publicKey: stored[0].publicKey.replace(
      /^(.{20})(.)/,
      (_m: string, p: string, ch: string) => `${p}${ch === "A" ? "B" : "A"}`,
    ),
  };
  expect((await verifyPasskeyApproval(otherKey)).verified).toBe(false);

  expect(Number(credential.counter)).toBeGreaterThan(0);
  const audit = await withDb(
    async (c) =>
      (
        await c.query(
          `SELECT outcome, "authMethod" FROM "AuditEvent" WHERE "proposalId" = $1 AND action = 'proposal:approve'`,
          [proposalId],
        )
      ).rows,
  );
  expect(audit).toEqual([{ outcome: "ok", authMethod: "passkey" }]);
});
