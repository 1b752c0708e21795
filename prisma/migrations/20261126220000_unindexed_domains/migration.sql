-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "unindexedDomains" TEXT NOT NULL DEFAULT '[]';
