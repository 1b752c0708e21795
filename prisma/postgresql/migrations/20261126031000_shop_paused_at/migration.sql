-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "pausedAt" TIMESTAMP(3);
