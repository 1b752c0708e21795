-- CreateTable
CREATE TABLE "PendingLookup" (
    "shopDomain" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "resourceId" TEXT NOT NULL,
    "changedAt" TIMESTAMP(3) NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,

    CONSTRAINT "PendingLookup_pkey" PRIMARY KEY ("shopDomain","kind","resourceId")
);

-- CreateTable
CREATE TABLE "ReconcileCheck" (
    "id" TEXT NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "since" TIMESTAMP(3),
    "runId" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "compared" INTEGER NOT NULL DEFAULT 0,
    "repaired" INTEGER NOT NULL DEFAULT 0,
    "items" TEXT NOT NULL DEFAULT '[]',
    "error" TEXT,

    CONSTRAINT "ReconcileCheck_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PendingLookup_shopDomain_receivedAt_idx" ON "PendingLookup"("shopDomain", "receivedAt");

-- CreateIndex
CREATE INDEX "ReconcileCheck_shopDomain_startedAt_idx" ON "ReconcileCheck"("shopDomain", "startedAt");

