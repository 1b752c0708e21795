-- The metaobject definitions whose entries the merchant chose for the index (Settings): JSON.
ALTER TABLE "Shop" ADD COLUMN "chosenMetaobjects" TEXT NOT NULL DEFAULT '[]';
