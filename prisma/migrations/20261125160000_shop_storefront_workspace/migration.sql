-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "storefrontWorkspaceId" TEXT;
