/** The app's own keys (`AppKey`), each stored sealed under a name (re-sealed by reencrypt-secrets). */
import prisma from "./db.server";

/** The sealed key of that name, or null when none was made yet. */
export async function appKeyCiphertext(name: string): Promise<string | null> {
  const [row] = await prisma.$queryRaw<{ ciphertext: string }[]>`
    SELECT "ciphertext" FROM "AppKey" WHERE "name" = ${name}`;
  return row?.ciphertext ?? null;
}

/** Stores a sealed key under the name unless one is there already (made meanwhile elsewhere). */
export async function storeAppKeyIfMissing(name: string, ciphertext: string): Promise<void> {
  await prisma.$executeRaw`
    INSERT INTO "AppKey" ("name", "ciphertext") VALUES (${name}, ${ciphertext})
    ON CONFLICT ("name") DO NOTHING`;
}

/** Forgets the key of that name if it is still the one sealed as `ciphertext`. */
export async function forgetAppKey(name: string, ciphertext: string): Promise<void> {
  await prisma.$executeRaw`
    DELETE FROM "AppKey" WHERE "name" = ${name} AND "ciphertext" = ${ciphertext}`;
}
