import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { defineConfig } from "prisma/config";
import { databaseUrlFrom } from "./app/database-url";

// The CLI runs Prisma's bundled WASM schema engine through the libSQL adapter, so migrations work
// without downloading native engines. A config file turns off Prisma's .env loading, hence the
// default here.
const url = databaseUrlFrom(process.env);
process.env.DATABASE_URL = url;

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  async adapter() {
    return new PrismaLibSQL({ url });
  },
});
