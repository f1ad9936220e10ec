// The Administration page's witnesses section (app/(dashboard)/admin/_components/witnesses-section.tsx): an
// admin adds a real `npm run witness` process by the vkey it printed, a bad key is refused at the form, the
// quorum is raised at once and the auditors' policy file says so, a loosening by the only admin is refused,
// and the worker's sequencer gets the witness's cosignature (shown as the last cosigned size). Then the
// database and the audit trail. The spec removes its witness straight in the database afterwards (one admin
// cannot, by design), so later specs see a tenant without witnesses.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { useSession, staff } from "./support/auth";
import { withDb } from "./support/db";
import { startWitness } from "../tests/support/witness";

test("an admin adds a running witness, raises the quorum; the only admin cannot loosen it; the witness cosigns", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // Only this run's events count (an earlier run against the same server wrote the same actions).
  const since = await withDb(async (c) =>
    String((await c.query(`SELECT coalesce(max(pos), 0) AS pos FROM "AuditEvent"`)).rows[0].pos),
  );
  const keys = (await (await page.request.get("/api/audit/public-keys")).json()) as {
    keys: { vkey: string; status: string }[];
  };
  const logVkey = keys.keys.find((k) => k.status === "current")!.vkey;
  const name = "witness.e2e.test";
  const witness = await startWitness(name, mkdtempSync(join(tmpdir(), "e2e-witness-")), [logVkey]);
  const { vkey, child } = witness;
  try {
    await useSession(page, staff("tienda-es", "admin"));
    await page.goto("/admin");
    const section = page.getByRole("region", { name: "Testigos del registro de auditoría" });
    await expect(section.getByText("Aún no hay testigos", { exact: false })).toBeVisible();

    const add = section.getByRole("form", { name: "Añadir un testigo" });
    await add.getByLabel("Nombre").fill(name);
    await add.getByLabel("Clave del testigo (vkey)").fill(logVkey); // a log key, not a witness's
    await add.getByLabel("URL").fill(witness.url);
    await add.getByRole("button", { name: "Añadir el testigo" }).click();
    await expect(add.getByRole("alert")).toContainText("cosignature/v1 vkey");

    await add.getByLabel("Clave del testigo (vkey)").fill(vkey);
    await add.getByRole("button", { name: "Añadir el testigo" }).click();
    await expect(section.getByRole("status")).toHaveText("Testigo añadido.");
    await expect(section.getByRole("cell", { name: new RegExp(`^${name.replace(/\./g, "\\.")}`) })).toBeVisible();

    const quorum = section.getByRole("form", { name: "Quórum" });
    await quorum.getByLabel("Cofirmas necesarias (de 1 testigos)").fill("1");
    await quorum.getByRole("button", { name: "Fijar el quórum" }).click();
    await expect(section.getByRole("status")).toHaveText("Aplicado.");
    await expect(section.locator("pre")).toContainText(`witness ${vkey}\nquorum 1`);

    // Lowering it back is a loosening: the tenant's only admin is refused, nothing changes.
    await quorum.getByLabel("Cofirmas necesarias (de 1 testigos)").fill("0");
    await quorum.getByRole("button", { name: "Fijar el quórum" }).click();
    await expect(quorum.getByRole("alert")).toContainText("No other admin can approve this");
    await expect(section.locator("pre")).toContainText("quorum 1");

    // The worker's sequencer submits the next checkpoint; the real witness cosigns it.
    await expect(async () => {
      await page.reload();
      await expect(section.getByRole("cell", { name: /^tamaño \d+,/ })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 45_000 });

    const db = await withDb(async (c) => ({
      witness: (
        await c.query(
          `SELECT w.name, w."lastError", t."witnessQuorum" FROM "AuditWitness" w JOIN "Tenant" t ON t.id = w."tenantId" WHERE t.slug = 'tienda-es'`,
        )
      ).rows,
      events: (
        await c.query(
          `SELECT action FROM "AuditEvent" e JOIN "Tenant" t ON t.id = e."tenantId" WHERE t.slug = 'tienda-es' AND action IN ('admin:add_witness', 'admin:set_witness_quorum') AND e.pos > $1::bigint ORDER BY pos`,
          [since],
        )
      ).rows.map((r: { action: string }) => r.action),
      cosignatures: Number(
        (await c.query(`SELECT count(*) FROM "AuditCosignature" WHERE witness = $1`, [name])).rows[0].count,
      ),
    }));
    expect(db.witness).toEqual([{ name, lastError: null, witnessQuorum: 1 }]);
    expect(db.events).toEqual(["admin:add_witness", "admin:set_witness_quorum"]);
    expect(db.cosignatures).toBeGreaterThan(0);
  } finally {
    child.kill("SIGTERM");
    await withDb(async (c) => {
      await c.query(`DELETE FROM "AuditWitness" WHERE "tenantId" = (SELECT id FROM "Tenant" WHERE slug = 'tienda-es')`);
      await c.query(`UPDATE "Tenant" SET "witnessQuorum" = 0 WHERE slug = 'tienda-es'`);
    });
  }
});
