-- Admin-declared actions (issue #38 item 4, docs/action-kinds.md "Declaring an action"): a declaration is an
-- action the agent can prepare on the tenant's own shop without code, versioned like policy: every version is its
-- own row, never updated in its spec, and only its status moves (pending → active | rejected; active → retired |
-- superseded). Every new version needs a second admin. At most one active and one pending version per name.

-- CreateTable
CREATE TABLE "ActionDeclaration" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "spec" JSONB NOT NULL,
    "proposedById" UUID NOT NULL,
    "decidedById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" TIMESTAMP(3),
    "retiredAt" TIMESTAMP(3),

    CONSTRAINT "ActionDeclaration_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ActionDeclaration_tenantId_name_version_key" ON "ActionDeclaration"("tenantId", "name", "version");

-- AddForeignKey
ALTER TABLE "ActionDeclaration" ADD CONSTRAINT "ActionDeclaration_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "ActionDeclaration" ADD CONSTRAINT "ActionDeclaration_status_check"
  CHECK ("status" IN ('pending', 'active', 'rejected', 'retired', 'superseded'));
ALTER TABLE "ActionDeclaration" ADD CONSTRAINT "ActionDeclaration_version_check" CHECK ("version" >= 1);
-- A decided version names who decided it and when; a pending one names nobody.
ALTER TABLE "ActionDeclaration" ADD CONSTRAINT "ActionDeclaration_decided_check"
  CHECK (("status" = 'pending') = ("decidedAt" IS NULL));

-- At most one active and one pending version of a name per tenant (whoever writes).
CREATE UNIQUE INDEX "ActionDeclaration_one_active_per_name" ON "ActionDeclaration"("tenantId", "name") WHERE "status" = 'active';
CREATE UNIQUE INDEX "ActionDeclaration_one_pending_per_name" ON "ActionDeclaration"("tenantId", "name") WHERE "status" = 'pending';
