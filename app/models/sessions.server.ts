/** Shopify's sessions (`Session`), kept by the app's Shopify library through its Prisma storage. */
import type { PrismaClient, Session as SessionRow } from "@prisma/client";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import prisma from "./db.server";

/** The id of a shop's offline session, as the Shopify library names it (`getOfflineId`). */
export function offlineSessionIdOf(shopDomain: string): string {
  return `offline_${shopDomain}`;
}

/**
 * Session rows read already (the live worker's pass reads its shop's offline session in its
 * first statement, passStart), each handed to the library's next read of that id instead of a
 * statement of its own: once, and never after any write of a session.
 */
const readAlready = new Map<string, SessionRow>();

/**
 * Runs `read` (which makes the library load the session `row.id`) with `row` as that load's
 * answer; the row is not used after `read` ends.
 */
export async function withSessionRead<T>(row: SessionRow, read: () => Promise<T>): Promise<T> {
  readAlready.set(row.id, row);
  try {
    return await read();
  } finally {
    if (readAlready.get(row.id) === row) readAlready.delete(row.id);
  }
}

/** The session storage of shopifyApp (app/shopify/app.server.ts), on the app's database. */
export function prismaSessionStorage() {
  const client = prisma.$extends({
    query: {
      session: {
        async $allOperations({ operation, args, query }) {
          if (operation === "findUnique") {
            const id = (args as { where?: { id?: unknown } }).where?.id;
            const row = typeof id === "string" ? readAlready.get(id) : undefined;
            if (row) {
              readAlready.delete(row.id);
              return row;
            }
          } else if (operation !== "findMany" && operation !== "count") {
            // A session written or deleted: nothing read before it stands for it.
            readAlready.clear();
          }
          return query(args);
        },
      },
    },
  });
  return new PrismaSessionStorage(client as unknown as PrismaClient);
}
