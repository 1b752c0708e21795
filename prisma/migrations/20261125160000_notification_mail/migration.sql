-- CreateTable
CREATE TABLE "NotificationMail" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "shopDomain" TEXT NOT NULL,
    "mailKey" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'owed',
    "notBefore" DATETIME NOT NULL,
    "claimToken" TEXT,
    "claimedUntil" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "failingSince" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settledAt" DATETIME
);

-- CreateIndex
CREATE INDEX "NotificationMail_state_notBefore_idx" ON "NotificationMail"("state", "notBefore");

-- CreateIndex
CREATE INDEX "NotificationMail_shopDomain_threadId_idx" ON "NotificationMail"("shopDomain", "threadId");

-- CreateIndex
CREATE UNIQUE INDEX "NotificationMail_shopDomain_mailKey_key" ON "NotificationMail"("shopDomain", "mailKey");

