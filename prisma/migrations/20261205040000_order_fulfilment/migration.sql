-- An order's fulfilment and shipping address, as the shop pushes them (Orders API `fulfilment`, `shipping_address`):
-- what the cancellation and address-change kinds derive from (docs/action-kinds.md). Additive: existing orders are
-- unfulfilled, without an address, until the shop pushes them again.

-- CreateEnum
CREATE TYPE "Fulfilment" AS ENUM ('unfulfilled', 'shipped', 'delivered');

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "fulfilment" "Fulfilment" NOT NULL DEFAULT 'unfulfilled',
ADD COLUMN     "shippingAddress" JSONB;
