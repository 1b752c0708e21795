-- AlterTable
ALTER TABLE "NotificationMail" ADD COLUMN "serverUnreachable" BOOLEAN NOT NULL DEFAULT false;
