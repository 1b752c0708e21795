-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "contactEmail" TEXT,
ADD COLUMN     "formerSecretKeyCiphertext" TEXT,
ADD COLUMN     "formerWorkspaceId" TEXT;

-- CreateTable
CREATE TABLE "ServiceWebhook" (
    "shopDomain" TEXT NOT NULL,
    "publicId" TEXT NOT NULL,
    "secretCiphertext" TEXT NOT NULL,
    "webhookId" TEXT,
    "url" TEXT,
    "events" TEXT,
    "registeredAt" TIMESTAMP(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ServiceWebhook_pkey" PRIMARY KEY ("shopDomain")
);

-- CreateTable
CREATE TABLE "ServiceEvent" (
    "shopDomain" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "threadId" TEXT,
    "test" BOOLEAN NOT NULL DEFAULT false,
    "data" TEXT NOT NULL,

    CONSTRAINT "ServiceEvent_pkey" PRIMARY KEY ("shopDomain","eventId")
);

-- CreateTable
CREATE TABLE "InboxItem" (
    "shopDomain" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "name" TEXT,
    "email" TEXT,
    "phone" TEXT,
    "message" TEXT,
    "handoffState" TEXT NOT NULL DEFAULT 'none',
    "contactSubmitted" BOOLEAN NOT NULL DEFAULT false,
    "firstAt" TIMESTAMP(3) NOT NULL,
    "lastAt" TIMESTAMP(3) NOT NULL,
    "eventCount" INTEGER NOT NULL DEFAULT 0,
    "handledAt" TIMESTAMP(3),

    CONSTRAINT "InboxItem_pkey" PRIMARY KEY ("shopDomain","threadId")
);

-- CreateIndex
CREATE UNIQUE INDEX "ServiceWebhook_publicId_key" ON "ServiceWebhook"("publicId");

-- CreateIndex
CREATE INDEX "ServiceEvent_shopDomain_threadId_idx" ON "ServiceEvent"("shopDomain", "threadId");

-- CreateIndex
CREATE INDEX "ServiceEvent_shopDomain_occurredAt_idx" ON "ServiceEvent"("shopDomain", "occurredAt");

-- CreateIndex
CREATE INDEX "ServiceEvent_receivedAt_idx" ON "ServiceEvent"("receivedAt");

-- CreateIndex
CREATE INDEX "InboxItem_shopDomain_firstAt_idx" ON "InboxItem"("shopDomain", "firstAt");

-- CreateIndex
CREATE INDEX "InboxItem_shopDomain_email_idx" ON "InboxItem"("shopDomain", "email");

