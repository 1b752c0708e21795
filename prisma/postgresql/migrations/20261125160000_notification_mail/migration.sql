-- CreateTable
CREATE TABLE "NotificationMail" (
    "id" SERIAL NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "mailKey" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'owed',
    "notBefore" TIMESTAMP(3) NOT NULL,
    "claimToken" TEXT,
    "claimedUntil" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "failingSince" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settledAt" TIMESTAMP(3),

    CONSTRAINT "NotificationMail_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "NotificationMail_state_notBefore_idx" ON "NotificationMail"("state", "notBefore");

-- CreateIndex
CREATE INDEX "NotificationMail_shopDomain_threadId_idx" ON "NotificationMail"("shopDomain", "threadId");

-- CreateIndex
CREATE UNIQUE INDEX "NotificationMail_shopDomain_mailKey_key" ON "NotificationMail"("shopDomain", "mailKey");

