-- CreateTable
CREATE TABLE "RateWindow" (
    "keyId" TEXT NOT NULL PRIMARY KEY,
    "version" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL DEFAULT '{}'
);
