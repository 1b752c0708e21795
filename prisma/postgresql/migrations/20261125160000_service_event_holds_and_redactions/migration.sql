-- CreateTable
CREATE TABLE "HeldServiceEvent" (
    "shopDomain" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL,
    "threadId" TEXT NOT NULL,
    "data" TEXT NOT NULL,

    CONSTRAINT "HeldServiceEvent_pkey" PRIMARY KEY ("shopDomain","eventId")
);

-- CreateTable
CREATE TABLE "RedactedShopper" (
    "shopDomain" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "redactedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RedactedShopper_pkey" PRIMARY KEY ("shopDomain","hash")
);

-- CreateTable
CREATE TABLE "AppKey" (
    "name" TEXT NOT NULL,
    "ciphertext" TEXT NOT NULL,

    CONSTRAINT "AppKey_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "HeldServiceEvent_shopDomain_threadId_idx" ON "HeldServiceEvent"("shopDomain", "threadId");

-- CreateIndex
CREATE INDEX "HeldServiceEvent_receivedAt_idx" ON "HeldServiceEvent"("receivedAt");

-- CreateIndex
CREATE INDEX "RedactedShopper_redactedAt_idx" ON "RedactedShopper"("redactedAt");
