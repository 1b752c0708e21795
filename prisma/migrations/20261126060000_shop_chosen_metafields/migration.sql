-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "chosenMetafields" TEXT NOT NULL DEFAULT '[]';
