-- AlterTable
ALTER TABLE "SyncRun" ADD COLUMN "counts" TEXT;

