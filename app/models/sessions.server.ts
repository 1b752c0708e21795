/** Shopify's sessions (`Session`), kept by the app's Shopify library through its Prisma storage. */
import type { PrismaClient } from "@prisma/client";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import prisma from "./db.server";
import { noteSessionsWritten, takeSessionRead } from "./session-reads.server";

/** The session storage of shopifyApp (app/shopify/app.server.ts), on the app's database. */
export function prismaSessionStorage() {
  const client = prisma.$extends({
    query: {
      session: {
        async $allOperations({ operation, args, query }) {
          if (operation === "findUnique") {
            const id = (args as { where?: { id?: unknown } }).where?.id;
            const row = typeof id === "string" ? takeSessionRead(id) : undefined;
            if (row) return row;
          } else if (operation !== "findMany" && operation !== "count") {
            // A session written or deleted: nothing read before it stands for it.
            noteSessionsWritten();
          }
          return query(args);
        },
      },
    },
  });
  return new PrismaSessionStorage(client as unknown as PrismaClient);
}
