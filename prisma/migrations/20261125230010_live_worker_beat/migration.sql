-- CreateTable
CREATE TABLE "LiveWorkerBeat" (
    "holder" TEXT NOT NULL PRIMARY KEY,
    "beatAt" DATETIME NOT NULL
);
