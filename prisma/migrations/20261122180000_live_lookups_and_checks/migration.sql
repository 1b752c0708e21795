-- CreateTable
CREATE TABLE "PendingLookup" (
    "shopDomain" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "resourceId" TEXT NOT NULL,
    "changedAt" DATETIME NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,

    PRIMARY KEY ("shopDomain", "kind", "resourceId")
);

-- CreateTable
CREATE TABLE "ReconcileCheck" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopDomain" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "since" DATETIME,
    "runId" TEXT,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    "compared" INTEGER NOT NULL DEFAULT 0,
    "repaired" INTEGER NOT NULL DEFAULT 0,
    "items" TEXT NOT NULL DEFAULT '[]',
    "error" TEXT
);

-- CreateIndex
CREATE INDEX "PendingLookup_shopDomain_receivedAt_idx" ON "PendingLookup"("shopDomain", "receivedAt");

-- CreateIndex
CREATE INDEX "ReconcileCheck_shopDomain_startedAt_idx" ON "ReconcileCheck"("shopDomain", "startedAt");

