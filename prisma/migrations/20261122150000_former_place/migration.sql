-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "formerSecretKeyCiphertext" TEXT;
ALTER TABLE "Shop" ADD COLUMN "formerWorkspaceId" TEXT;
