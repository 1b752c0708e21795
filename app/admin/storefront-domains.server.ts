/**
 * The Dashboard's "Storefronts" lines (decision 0038): for each storefront domain with a
 * workspace of its own, whether that workspace is filled, being filled, or not filled and why,
 * and which workspace its shoppers get meanwhile (the primary one: never an empty workspace).
 */
import type { Shop } from "@prisma/client";
import type { AdminFormat } from "../format";
import { indexedCount } from "../models/ledger.server";
import { storefrontPresencesOf } from "../models/storefront-presences.server";
import { presenceWorkspacesOf } from "../sync/full/presence-workspaces.server";
import { domainWorkspaceStanding } from "../sync/full/domain-workspace-standing.server";

export interface StorefrontDomainLine {
  host: string;
  url: string;
  workspaceId: string;
  state: "filled" | "filling" | "not filled";
  text: string;
}

export async function storefrontDomainLines(
  shop: Shop | null,
  f: AdminFormat,
): Promise<StorefrontDomainLine[]> {
  if (!shop?.secretKeyCiphertext) return [];
  const { presences } = await storefrontPresencesOf(shop.shopDomain);
  const primary = presences.find((p) => p.primary && p.defaultLocale);
  const meanwhile = `its shoppers get the primary workspace${primary ? ` (${primary.localeName})` : ""} meanwhile`;
  return Promise.all(
    presenceWorkspacesOf(shop, presences).workspaces.map(async (workspace) => {
      const presence = presences.find(
        (p) => p.host.toLowerCase() === workspace.host && p.defaultLocale,
      );
      const url = presence?.url ?? `https://${workspace.host}/`;
      const language = presence?.localeName ?? workspace.locale;
      const line = (state: StorefrontDomainLine["state"], text: string) => ({
        host: workspace.host,
        url,
        workspaceId: workspace.workspaceId,
        state,
        text,
      });
      const [standing, products, posts] = await Promise.all([
        domainWorkspaceStanding(workspace.ledgerKey),
        indexedCount({
          shopDomain: workspace.ledgerKey,
          workspaceId: workspace.workspaceId,
          kind: "product",
        }),
        indexedCount({
          shopDomain: workspace.ledgerKey,
          workspaceId: workspace.workspaceId,
          kind: "post",
        }),
      ]);
      const where = `${url} (${language}), workspace ${workspace.workspaceId}`;
      switch (standing.kind) {
        case "filled":
          if (products + posts === 0)
            return line("not filled", `${where}: not filled, it holds nothing yet; ${meanwhile}.`);
          return line(
            "filled",
            `${where}: filled with ${f.count(products, "product")} and ${f.count(posts, "page", "pages")} in ${language}; the chat there asks it.`,
          );
        case "filling":
          return line("filling", `${where}: being filled; ${meanwhile}.`);
        case "not-started":
          return line("filling", `${where}: waiting to be filled (within minutes); ${meanwhile}.`);
        case "over-quota": {
          const missing = [
            standing.products > 0 ? f.count(standing.products, "product") : null,
            standing.posts > 0 ? f.count(standing.posts, "page", "pages") : null,
          ]
            .filter(Boolean)
            .join(" and ");
          return line(
            "not filled",
            `${where}: not filled, ${missing} could not be sent this month (quota resets on ${f.day(standing.resetsOn)}); ${meanwhile}.`,
          );
        }
        case "stopped":
          return line(
            "not filled",
            `${where}: not filled, its last fill stopped${standing.message ? ` (${standing.message})` : ""} ${f.moment(standing.at)} and is tried again within the hour; ${meanwhile}.`,
          );
      }
    }),
  );
}
