-- Demo tenants are marked, so demo data never reaches production unnoticed (docs/operations.md): db:seed refuses a
-- database holding any unmarked tenant, and a production start refuses to serve while a marked one exists.
-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "demo" BOOLEAN NOT NULL DEFAULT false;

-- The demo seed's tenants (their ids are derived from their slugs, scripts/lib/demo-data.ts) loaded before this column existed.
UPDATE "Tenant" SET "demo" = true
 WHERE ("id", "slug") IN (('cc5671a7-e2be-4ab2-a1ac-30c87256f012'::uuid, 'tienda-es'), ('79b6613b-5ca2-4013-ad0d-7dfe68650e7e'::uuid, 'shop-us'));
