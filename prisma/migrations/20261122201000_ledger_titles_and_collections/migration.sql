-- AlterTable
ALTER TABLE "IndexedItem" ADD COLUMN "collectionIds" TEXT;
ALTER TABLE "IndexedItem" ADD COLUMN "title" TEXT;

-- AlterTable
ALTER TABLE "SyncItem" ADD COLUMN "collectionIds" TEXT;
ALTER TABLE "SyncItem" ADD COLUMN "title" TEXT;
