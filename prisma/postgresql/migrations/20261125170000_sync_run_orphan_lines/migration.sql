-- AlterTable
ALTER TABLE "SyncRun" ADD COLUMN     "orphanLines" INTEGER NOT NULL DEFAULT 0;
