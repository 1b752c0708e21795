-- CreateTable
CREATE TABLE "RateWindow" (
    "keyId" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL DEFAULT '{}',

    CONSTRAINT "RateWindow_pkey" PRIMARY KEY ("keyId")
);
