import { ApiVersion } from "@shopify/shopify-app-remix/server";

/** The Admin API version the app asks for (2026-10): its documents are validated against it. */
export const API_VERSION = ApiVersion.October26;
