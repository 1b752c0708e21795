-- CreateTable
CREATE TABLE "PendingChange" (
    "shopDomain" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "change" TEXT NOT NULL,
    "changedAt" DATETIME NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,

    PRIMARY KEY ("shopDomain", "productId")
);

-- CreateTable
CREATE TABLE "WebhookReceipt" (
    "webhookId" TEXT NOT NULL PRIMARY KEY,
    "shopDomain" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "ShopLease" (
    "shopDomain" TEXT NOT NULL PRIMARY KEY,
    "holder" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "PendingChange_shopDomain_receivedAt_idx" ON "PendingChange"("shopDomain", "receivedAt");

-- CreateIndex
CREATE INDEX "WebhookReceipt_receivedAt_idx" ON "WebhookReceipt"("receivedAt");

