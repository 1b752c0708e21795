-- AlterTable
ALTER TABLE "IndexedItem" ADD COLUMN     "collectionIds" TEXT,
ADD COLUMN     "title" TEXT;

-- AlterTable
ALTER TABLE "SyncItem" ADD COLUMN     "collectionIds" TEXT,
ADD COLUMN     "title" TEXT;
