-- CreateTable
CREATE TABLE "HeldServiceEvent" (
    "shopDomain" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "occurredAt" DATETIME NOT NULL,
    "receivedAt" DATETIME NOT NULL,
    "threadId" TEXT NOT NULL,
    "data" TEXT NOT NULL,

    PRIMARY KEY ("shopDomain", "eventId")
);

-- CreateTable
CREATE TABLE "RedactedShopper" (
    "shopDomain" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "redactedAt" DATETIME NOT NULL,

    PRIMARY KEY ("shopDomain", "hash")
);

-- CreateTable
CREATE TABLE "AppKey" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "ciphertext" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "HeldServiceEvent_shopDomain_threadId_idx" ON "HeldServiceEvent"("shopDomain", "threadId");

-- CreateIndex
CREATE INDEX "HeldServiceEvent_receivedAt_idx" ON "HeldServiceEvent"("receivedAt");

-- CreateIndex
CREATE INDEX "RedactedShopper_redactedAt_idx" ON "RedactedShopper"("redactedAt");

