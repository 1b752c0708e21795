-- CreateTable
CREATE TABLE "LiveWorkerBeat" (
    "holder" TEXT NOT NULL,
    "beatAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LiveWorkerBeat_pkey" PRIMARY KEY ("holder")
);
