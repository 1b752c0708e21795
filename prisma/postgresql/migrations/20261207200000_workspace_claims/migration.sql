-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "workspaceTakenFrom" TEXT;

-- AlterTable
ALTER TABLE "ServiceEvent" ADD COLUMN "storefront" TEXT;

-- AlterTable
ALTER TABLE "InboxItem" ADD COLUMN "storefront" TEXT;

-- CreateTable
CREATE TABLE "WorkspaceClaim" (
    "workspaceId" TEXT NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "claimedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkspaceClaim_pkey" PRIMARY KEY ("workspaceId")
);

-- CreateIndex
CREATE INDEX "WorkspaceClaim_shopDomain_idx" ON "WorkspaceClaim"("shopDomain");

-- Every workspace a shop writes to, or wrote to and may still hear from, is its own. Where two
-- shops already share one, the shop installed first keeps it (the other's Settings say so).
INSERT INTO "WorkspaceClaim" ("workspaceId", "shopDomain", "host")
SELECT COALESCE("workspaceOverride", "workspaceId"), "shopDomain", COALESCE("primaryDomain", "shopDomain")
FROM "Shop" WHERE COALESCE("workspaceOverride", "workspaceId") IS NOT NULL
ORDER BY "installedAt", "shopDomain"
ON CONFLICT ("workspaceId") DO NOTHING;

INSERT INTO "WorkspaceClaim" ("workspaceId", "shopDomain", "host")
SELECT "storefrontWorkspaceId", "shopDomain", COALESCE("primaryDomain", "shopDomain")
FROM "Shop" WHERE "storefrontWorkspaceId" IS NOT NULL
ORDER BY "installedAt", "shopDomain"
ON CONFLICT ("workspaceId") DO NOTHING;

INSERT INTO "WorkspaceClaim" ("workspaceId", "shopDomain", "host")
SELECT "formerWorkspaceId", "shopDomain", COALESCE("primaryDomain", "shopDomain")
FROM "Shop" WHERE "formerWorkspaceId" IS NOT NULL
ORDER BY "installedAt", "shopDomain"
ON CONFLICT ("workspaceId") DO NOTHING;

INSERT INTO "WorkspaceClaim" ("workspaceId", "shopDomain", "host")
SELECT lower(replace(rtrim(p."host", '.'), '.', '-')), p."shopDomain", lower(rtrim(p."host", '.'))
FROM "StorefrontPresence" p JOIN "Shop" s ON s."shopDomain" = p."shopDomain"
WHERE p."primary" = false
ORDER BY s."installedAt", p."shopDomain"
ON CONFLICT ("workspaceId") DO NOTHING;
