-- AlterTable
ALTER TABLE "IndexedItem" ADD COLUMN "content" TEXT;
