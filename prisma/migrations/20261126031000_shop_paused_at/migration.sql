-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "pausedAt" DATETIME;
