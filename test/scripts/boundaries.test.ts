import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/** The folder boundaries are ESLint rules (eslint.config.js); these prove they catch a crossing. */
const eslint = new ESLint({ cwd: process.cwd() });

async function messagesFor(filePath: string, code: string): Promise<string[]> {
  const results = await eslint.lintText(code, { filePath });
  return results.flatMap((result) => result.messages.map((message) => message.message));
}

describe("only app/models/ talks to the database", () => {
  it.each([
    [
      "app/sync/engine/example.server.ts",
      'import prisma from "../../models/db.server";\nexport const db = prisma;\n',
    ],
    [
      "app/shop/example.server.ts",
      'import { Prisma } from "@prisma/client";\nexport const sql = Prisma.sql`SELECT 1`;\n',
    ],
    [
      "app/service-events/example.server.ts",
      'import { PrismaClient } from "@prisma/client";\nexport const client = new PrismaClient();\n',
    ],
  ])("refuses %s reaching the database itself", async (filePath, code) => {
    const messages = await messagesFor(filePath, code);
    expect(messages.join("\n")).toMatch(/Only app\/models\/ talks to the database/);
  });

  it("lets models use the client, and others use the database's types", async () => {
    expect(
      await messagesFor(
        "app/models/example.server.ts",
        'import prisma from "./db.server";\nexport const db = prisma;\n',
      ),
    ).toEqual([]);
    expect(
      await messagesFor(
        "app/shop/example.server.ts",
        'import type { Shop } from "@prisma/client";\nexport type Example = Shop;\n',
      ),
    ).toEqual([]);
  });
});
