-- CreateTable
CREATE TABLE "InventoryItemProduct" (
    "shopDomain" TEXT NOT NULL,
    "inventoryItemId" TEXT NOT NULL,
    "productId" TEXT NOT NULL,

    PRIMARY KEY ("shopDomain", "inventoryItemId")
);
