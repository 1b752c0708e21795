import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaClient } from "@prisma/client";
import { databaseUrlFrom } from "./database-url";

export function createPrismaClient(url: string = databaseUrlFrom(process.env)): PrismaClient {
  return new PrismaClient({ adapter: new PrismaLibSQL({ url }) });
}

declare global {
  var prismaGlobal: PrismaClient | undefined;
}

// One client per process; the dev server's module reloads reuse it instead of opening another.
const prisma: PrismaClient = globalThis.prismaGlobal ?? createPrismaClient();
if (process.env.NODE_ENV !== "production") globalThis.prismaGlobal = prisma;

export default prisma;
