import type { PrismaClient } from "@prisma/client";
import { onPostgres } from "./test-database";

/**
 * Makes the database refuse (or take again) every new webhook receipt: a real failure, from the
 * database, inside a webhook's write.
 */
export async function refuseReceipts(prisma: PrismaClient, refuse: boolean): Promise<void> {
  if (onPostgres()) {
    await prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS refuse_receipts ON "WebhookReceipt"`);
    if (!refuse) return;
    await prisma.$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION refuse_receipt() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'receipts refused'; END; $$ LANGUAGE plpgsql`);
    await prisma.$executeRawUnsafe(`
      CREATE TRIGGER refuse_receipts BEFORE INSERT ON "WebhookReceipt"
      FOR EACH ROW EXECUTE FUNCTION refuse_receipt()`);
  } else {
    await prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS refuse_receipts`);
    if (!refuse) return;
    await prisma.$executeRawUnsafe(`
      CREATE TRIGGER refuse_receipts BEFORE INSERT ON "WebhookReceipt"
      BEGIN SELECT RAISE(ABORT, 'receipts refused'); END`);
  }
}
