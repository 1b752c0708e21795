-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "presencesProblem" TEXT;
ALTER TABLE "Shop" ADD COLUMN "presencesReadAt" DATETIME;

-- CreateTable
CREATE TABLE "StorefrontPresence" (
    "shopDomain" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "webPresenceId" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "locale" TEXT NOT NULL,
    "localeName" TEXT NOT NULL,
    "localePublished" BOOLEAN NOT NULL,
    "defaultLocale" BOOLEAN NOT NULL,
    "primary" BOOLEAN NOT NULL,
    "markets" TEXT NOT NULL,
    "moreMarkets" BOOLEAN NOT NULL,
    "position" INTEGER NOT NULL,

    PRIMARY KEY ("shopDomain", "url")
);

