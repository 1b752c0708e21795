-- CreateTable
CREATE TABLE "SyncRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME
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
    "sourceUpdatedAt" DATETIME,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,

    PRIMARY KEY ("runId", "kind", "itemId"),
    CONSTRAINT "SyncItem_runId_fkey" FOREIGN KEY ("runId") REFERENCES "SyncRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "IndexedItem" (
    "shopDomain" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "sentAt" DATETIME NOT NULL,
    "seenRunId" TEXT,

    PRIMARY KEY ("shopDomain", "workspaceId", "kind", "itemId")
);

-- CreateTable
CREATE TABLE "QuotaUsage" (
    "shopDomain" TEXT NOT NULL,
    "month" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "used" INTEGER NOT NULL,
    "limit" INTEGER,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("shopDomain", "month", "kind")
);

-- CreateIndex
CREATE UNIQUE INDEX "SyncRun_activeShop_key" ON "SyncRun"("activeShop");

-- CreateIndex
CREATE INDEX "SyncRun_shopDomain_startedAt_idx" ON "SyncRun"("shopDomain", "startedAt");

-- CreateIndex
CREATE INDEX "SyncItem_runId_status_kind_idx" ON "SyncItem"("runId", "status", "kind");

-- CreateIndex
CREATE INDEX "IndexedItem_shopDomain_workspaceId_kind_seenRunId_idx" ON "IndexedItem"("shopDomain", "workspaceId", "kind", "seenRunId");

