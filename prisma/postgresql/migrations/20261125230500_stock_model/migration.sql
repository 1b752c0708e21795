-- AlterTable
ALTER TABLE "PendingChange" ADD COLUMN "fingerprint" TEXT;

-- CreateTable
CREATE TABLE "StockItem" (
    "shopDomain" TEXT NOT NULL,
    "inventoryItemId" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "variantId" TEXT NOT NULL,
    "tracked" BOOLEAN NOT NULL,
    "inventoryPolicy" TEXT NOT NULL,
    "readAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StockItem_pkey" PRIMARY KEY ("shopDomain","inventoryItemId")
);

-- CreateTable
CREATE TABLE "StockLevel" (
    "shopDomain" TEXT NOT NULL,
    "inventoryItemId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "available" INTEGER NOT NULL,
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StockLevel_pkey" PRIMARY KEY ("shopDomain","inventoryItemId","locationId")
);

-- CreateIndex
CREATE INDEX "StockItem_shopDomain_productId_idx" ON "StockItem"("shopDomain", "productId");
