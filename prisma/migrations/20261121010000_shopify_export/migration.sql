-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "pauseCode" TEXT;
ALTER TABLE "Shop" ADD COLUMN "pauseUrl" TEXT;

-- AlterTable
ALTER TABLE "SyncRun" ADD COLUMN "errorUrl" TEXT;

-- CreateTable
CREATE TABLE "BulkExport" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopDomain" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "errorCode" TEXT,
    "url" TEXT,
    "objectCount" INTEGER,
    "finishedNoticeAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "BulkExport_runId_idx" ON "BulkExport"("runId");

-- CreateIndex
CREATE INDEX "BulkExport_shopDomain_idx" ON "BulkExport"("shopDomain");

