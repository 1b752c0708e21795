-- CreateTable
CREATE TABLE "InventoryItemProduct" (
    "shopDomain" TEXT NOT NULL,
    "inventoryItemId" TEXT NOT NULL,
    "productId" TEXT NOT NULL,

    CONSTRAINT "InventoryItemProduct_pkey" PRIMARY KEY ("shopDomain","inventoryItemId")
);
