/**
 * Which shop each workspace of the service is (`WorkspaceClaim`): one shop per workspace id. A
 * shop claims a workspace before it first writes there; a claim held by another shop is refused.
 * Claims stay when the shop moves on (its earlier workspaces' events still reach it) and go with
 * the shop's data.
 */
import { Prisma } from "@prisma/client";
import prisma, { retryWhileBusy } from "./db.server";
import { normalizedWorkspaceId } from "../index-service/workspace-id";

export interface WorkspaceClaim {
  workspaceId: string;
  shopDomain: string;
  host: string;
}

/**
 * Claims the workspace for the shop (serving the storefront `host`): true when it is the shop's
 * now, false when another shop holds it. The shop's own claim takes the new host.
 */
export async function claimWorkspace(
  shopDomain: string,
  workspaceId: string,
  host: string,
): Promise<boolean> {
  const id = normalizedWorkspaceId(workspaceId);
  const storefront = host.trim().replace(/\.$/, "").toLowerCase();
  return retryWhileBusy(async () => {
    await prisma.$executeRaw`
      INSERT INTO "WorkspaceClaim" ("workspaceId", "shopDomain", "host", "claimedAt")
      VALUES (${id}, ${shopDomain}, ${storefront}, ${new Date()})
      ON CONFLICT ("workspaceId") DO NOTHING`;
    const updated = await prisma.$executeRaw`
      UPDATE "WorkspaceClaim" SET "host" = ${storefront}
      WHERE "workspaceId" = ${id} AND "shopDomain" = ${shopDomain}`;
    return updated > 0;
  });
}

/** The shop holding the workspace, if any (the id as an event names it). */
export async function claimOf(workspaceId: string): Promise<WorkspaceClaim | null> {
  const [claim] = await prisma.$queryRaw<WorkspaceClaim[]>`
    SELECT "workspaceId", "shopDomain", "host" FROM "WorkspaceClaim"
    WHERE "workspaceId" = ${normalizedWorkspaceId(workspaceId)}`;
  return claim ?? null;
}

/** Of these workspace ids, those another shop holds. */
export async function heldByOtherShops(
  shopDomain: string,
  workspaceIds: readonly string[],
): Promise<Set<string>> {
  if (workspaceIds.length === 0) return new Set();
  const ids = workspaceIds.map(normalizedWorkspaceId);
  const rows = await prisma.$queryRaw<{ workspaceId: string }[]>`
    SELECT "workspaceId" FROM "WorkspaceClaim"
    WHERE "workspaceId" IN (${Prisma.join(ids)}) AND "shopDomain" <> ${shopDomain}`;
  return new Set(rows.map((row) => row.workspaceId));
}
