import { queryAdmin, type AdminGraphql } from "./admin-graphql";
import { logFor } from "../server/log";

const log = logFor("shopify");

/** The chat widget's app embed reads `app.metafields.chat_widget.config`: an app-data metafield. */
export const STOREFRONT_CONFIG_NAMESPACE = "chat_widget";
export const STOREFRONT_CONFIG_KEY = "config";

export interface StorefrontConfig {
  apiUrl: string;
  publishableKey: string;
  workspaceId: string;
  /**
   * Storefront host → its own workspace, for each domain other than the primary whose workspace
   * is filled (decision 0032); the embed asks `workspaces[request.host]`, else `workspaceId`.
   */
  workspaces?: Record<string, string>;
}

/**
 * Shopify refuses a `json` metafield written with API 2026-04 or later past 128 KB (its
 * changelog, "JSON metafield values limited to 128KB"; docs/decisions/0049).
 */
export const STOREFRONT_CONFIG_MAX_BYTES = 128 * 1024;

/**
 * The configuration as Shopify will take it: when naming every domain's workspace would pass
 * STOREFRONT_CONFIG_MAX_BYTES, the domains after the last that fits are left out (their shoppers
 * get `workspaceId`, the primary's catalogue, rather than a refused write that names none).
 */
export function boundedStorefrontConfig(config: StorefrontConfig): {
  config: StorefrontConfig;
  leftOut: string[];
} {
  const size = (value: StorefrontConfig) => Buffer.byteLength(JSON.stringify(value), "utf8");
  if (size(config) <= STOREFRONT_CONFIG_MAX_BYTES || !config.workspaces)
    return { config, leftOut: [] };
  const entries = Object.entries(config.workspaces);
  // Each entry is `"host":"workspace",`: the bytes each adds, so one pass finds how many fit.
  let bytes = size({ ...config, workspaces: {} });
  let kept = 0;
  for (const [host, workspace] of entries) {
    const adds = Buffer.byteLength(JSON.stringify({ [host]: workspace }), "utf8") - 2 + 1;
    if (bytes + adds > STOREFRONT_CONFIG_MAX_BYTES) break;
    bytes += adds;
    kept += 1;
  }
  return {
    config: { ...config, workspaces: Object.fromEntries(entries.slice(0, kept)) },
    leftOut: entries.slice(kept).map(([host]) => host),
  };
}

export const APP_INSTALLATION_QUERY = `query AppInstallation {
  currentAppInstallation { id }
}`;

export const STOREFRONT_CONFIG_SET_MUTATION = `mutation SetStorefrontConfig($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) {
    metafields { id }
    userErrors { field message code }
  }
}`;

interface MetafieldsSetData {
  metafieldsSet: {
    userErrors: { field: string[] | null; message: string; code: string | null }[];
  } | null;
}

/**
 * Writes what the storefront widget needs (never a secret) where its app embed reads it, within
 * Shopify's size bound; returns the hosts left out for it (boundedStorefrontConfig).
 */
export async function writeStorefrontConfig(
  admin: AdminGraphql,
  whole: StorefrontConfig,
  shopDomain: string,
): Promise<string[]> {
  const { config, leftOut } = boundedStorefrontConfig(whole);
  if (leftOut.length > 0) {
    log.warn(
      { shop: shopDomain, leftOut: leftOut.length, first: leftOut.slice(0, 5) },
      `The storefront configuration of ${shopDomain} names ${Object.keys(config.workspaces ?? {}).length} domains' workspaces, not ${leftOut.length} more: Shopify takes at most ${STOREFRONT_CONFIG_MAX_BYTES / 1024} KB; shoppers on those get the primary domain's catalogue`,
    );
  }
  const { currentAppInstallation } = await queryAdmin<{ currentAppInstallation: { id: string } }>(
    admin,
    APP_INSTALLATION_QUERY,
  );
  const data = await queryAdmin<MetafieldsSetData>(admin, STOREFRONT_CONFIG_SET_MUTATION, {
    metafields: [
      {
        ownerId: currentAppInstallation.id,
        namespace: STOREFRONT_CONFIG_NAMESPACE,
        key: STOREFRONT_CONFIG_KEY,
        type: "json",
        value: JSON.stringify(config),
      },
    ],
  });
  const errors = data.metafieldsSet?.userErrors ?? [];
  if (errors.length > 0)
    throw new Error(
      `Shopify refused the storefront configuration: ${errors.map((e) => e.message).join("; ")}`,
    );
  return leftOut;
}
