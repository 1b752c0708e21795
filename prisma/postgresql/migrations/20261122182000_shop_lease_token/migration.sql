-- AlterTable
ALTER TABLE "ShopLease" ADD COLUMN     "token" TEXT NOT NULL DEFAULT '';

