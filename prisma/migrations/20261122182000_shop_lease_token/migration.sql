-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ShopLease" (
    "shopDomain" TEXT NOT NULL PRIMARY KEY,
    "holder" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "token" TEXT NOT NULL DEFAULT ''
);
INSERT INTO "new_ShopLease" ("expiresAt", "holder", "shopDomain") SELECT "expiresAt", "holder", "shopDomain" FROM "ShopLease";
DROP TABLE "ShopLease";
ALTER TABLE "new_ShopLease" RENAME TO "ShopLease";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

