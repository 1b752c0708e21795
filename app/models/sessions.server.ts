/** Shopify's sessions (`Session`), kept by the app's Shopify library through its Prisma storage. */
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import prisma from "./db.server";

/** The session storage of shopifyApp (app/shopify/app.server.ts), on the app's database. */
export function prismaSessionStorage() {
  return new PrismaSessionStorage(prisma);
}
