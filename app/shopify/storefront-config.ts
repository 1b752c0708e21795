import { queryAdmin, type AdminGraphql } from "./admin-graphql";

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

/** Writes what the storefront widget needs (never a secret) where its app embed reads it. */
export async function writeStorefrontConfig(
  admin: AdminGraphql,
  config: StorefrontConfig,
): Promise<void> {
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
}
