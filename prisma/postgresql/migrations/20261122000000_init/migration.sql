-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "isOnline" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "expires" TIMESTAMP(3),
    "accessToken" TEXT NOT NULL,
    "userId" BIGINT,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "accountOwner" BOOLEAN,
    "locale" TEXT,
    "collaborator" BOOLEAN,
    "emailVerified" BOOLEAN,
    "refreshToken" TEXT,
    "refreshTokenExpires" TIMESTAMP(3),

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Shop" (
    "shopDomain" TEXT NOT NULL,
    "primaryDomain" TEXT,
    "workspaceId" TEXT,
    "workspaceOverride" TEXT,
    "currencyCode" TEXT,
    "tier" TEXT,
    "secretKeyCiphertext" TEXT,
    "secretKeyLast4" TEXT,
    "publishableKey" TEXT,
    "syncProducts" BOOLEAN NOT NULL DEFAULT true,
    "syncPages" BOOLEAN NOT NULL DEFAULT true,
    "syncArticles" BOOLEAN NOT NULL DEFAULT true,
    "state" TEXT NOT NULL DEFAULT 'active',
    "pauseReason" TEXT,
    "pauseCode" TEXT,
    "pauseUrl" TEXT,
    "scopes" TEXT,
    "installedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalledAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Shop_pkey" PRIMARY KEY ("shopDomain")
);

-- CreateTable
CREATE TABLE "ComplianceRequest" (
    "id" SERIAL NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "webhookId" TEXT,
    "outcome" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ComplianceRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SyncRun" (
    "id" TEXT NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "activeShop" TEXT,
    "workspaceId" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'running',
    "phase" TEXT NOT NULL DEFAULT 'export',
    "exportComplete" BOOLEAN NOT NULL DEFAULT false,
    "sources" TEXT NOT NULL DEFAULT '[]',
    "exportedTypes" TEXT NOT NULL DEFAULT 'product,page,article',
    "tier" TEXT,
    "productsTotal" INTEGER NOT NULL DEFAULT 0,
    "postsTotal" INTEGER NOT NULL DEFAULT 0,
    "productsUnchanged" INTEGER NOT NULL DEFAULT 0,
    "postsUnchanged" INTEGER NOT NULL DEFAULT 0,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "rateLimited" INTEGER NOT NULL DEFAULT 0,
    "errorCode" TEXT,
    "errorMessage" TEXT,
    "errorUrl" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "SyncRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SyncItem" (
    "runId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "payload" TEXT,
    "contentHash" TEXT,
    "isNew" BOOLEAN NOT NULL DEFAULT false,
    "stockStatus" TEXT,
    "sourceUpdatedAt" TIMESTAMP(3),
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,

    CONSTRAINT "SyncItem_pkey" PRIMARY KEY ("runId","kind","itemId")
);

-- CreateTable
CREATE TABLE "IndexedItem" (
    "shopDomain" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "sentAt" TIMESTAMP(3) NOT NULL,
    "seenRunId" TEXT,

    CONSTRAINT "IndexedItem_pkey" PRIMARY KEY ("shopDomain","workspaceId","kind","itemId")
);

-- CreateTable
CREATE TABLE "QuotaUsage" (
    "shopDomain" TEXT NOT NULL,
    "month" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "used" INTEGER NOT NULL,
    "limit" INTEGER,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "QuotaUsage_pkey" PRIMARY KEY ("shopDomain","month","kind")
);

-- CreateTable
CREATE TABLE "BulkExport" (
    "id" TEXT NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "errorCode" TEXT,
    "url" TEXT,
    "objectCount" INTEGER,
    "finishedNoticeAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "BulkExport_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PendingChange" (
    "shopDomain" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "change" TEXT NOT NULL,
    "changedAt" TIMESTAMP(3) NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,

    CONSTRAINT "PendingChange_pkey" PRIMARY KEY ("shopDomain","productId")
);

-- CreateTable
CREATE TABLE "WebhookReceipt" (
    "webhookId" TEXT NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookReceipt_pkey" PRIMARY KEY ("webhookId")
);

-- CreateTable
CREATE TABLE "ShopLease" (
    "shopDomain" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShopLease_pkey" PRIMARY KEY ("shopDomain")
);

-- CreateIndex
CREATE INDEX "Session_shop_idx" ON "Session"("shop");

-- CreateIndex
CREATE INDEX "ComplianceRequest_shopDomain_idx" ON "ComplianceRequest"("shopDomain");

-- CreateIndex
CREATE UNIQUE INDEX "SyncRun_activeShop_key" ON "SyncRun"("activeShop");

-- CreateIndex
CREATE INDEX "SyncRun_shopDomain_startedAt_idx" ON "SyncRun"("shopDomain", "startedAt");

-- CreateIndex
CREATE INDEX "SyncItem_runId_status_kind_idx" ON "SyncItem"("runId", "status", "kind");

-- CreateIndex
CREATE INDEX "IndexedItem_shopDomain_workspaceId_kind_seenRunId_idx" ON "IndexedItem"("shopDomain", "workspaceId", "kind", "seenRunId");

-- CreateIndex
CREATE INDEX "BulkExport_runId_idx" ON "BulkExport"("runId");

-- CreateIndex
CREATE INDEX "BulkExport_shopDomain_idx" ON "BulkExport"("shopDomain");

-- CreateIndex
CREATE INDEX "PendingChange_shopDomain_receivedAt_idx" ON "PendingChange"("shopDomain", "receivedAt");

-- CreateIndex
CREATE INDEX "WebhookReceipt_receivedAt_idx" ON "WebhookReceipt"("receivedAt");

-- AddForeignKey
ALTER TABLE "SyncItem" ADD CONSTRAINT "SyncItem_runId_fkey" FOREIGN KEY ("runId") REFERENCES "SyncRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

