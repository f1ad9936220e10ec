-- Customer ids are the shop's own ids, unique per tenant (issue #36 item 10): two shops may both have a "C-1".
-- The key becomes (tenantId, id) and every reference carries its row's tenant, so a join can never reach another
-- tenant's customer. Existing rows keep their ids; every existing reference already points at a customer of its
-- own tenant (the Orders API refused anything else), which the new foreign keys check as they are added.

-- DropForeignKey
ALTER TABLE "Order" DROP CONSTRAINT "Order_customerId_fkey";
ALTER TABLE "Proposal" DROP CONSTRAINT "Proposal_customerId_fkey";
ALTER TABLE "SupportTicket" DROP CONSTRAINT "SupportTicket_customerId_fkey";

-- The primary key: (tenantId, id) (its index also serves lookups by tenant).
ALTER TABLE "Customer" DROP CONSTRAINT "Customer_pkey",
ADD CONSTRAINT "Customer_pkey" PRIMARY KEY ("tenantId", "id");
DROP INDEX "Customer_tenantId_idx";

-- AddForeignKey
ALTER TABLE "Order" ADD CONSTRAINT "Order_tenantId_customerId_fkey" FOREIGN KEY ("tenantId", "customerId") REFERENCES "Customer"("tenantId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "Proposal" ADD CONSTRAINT "Proposal_tenantId_customerId_fkey" FOREIGN KEY ("tenantId", "customerId") REFERENCES "Customer"("tenantId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "SupportTicket" ADD CONSTRAINT "SupportTicket_tenantId_customerId_fkey" FOREIGN KEY ("tenantId", "customerId") REFERENCES "Customer"("tenantId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;
