/**
 * Runs the preview storefront from the command line against a running service (the emulator):
 *   npx tsx dev/storefront/main.ts
 * STOREFRONT_PORT (default 4020), SERVICE_URL (default http://127.0.0.1:4010),
 * SERVICE_PUBLISHABLE_KEY (default svc_pk_test_personal), SERVICE_WORKSPACE_ID (default
 * preview-shop-example-com).
 */
import { startStorefrontPreview } from "./server";

const preview = await startStorefrontPreview({
  port: Number(process.env.STOREFRONT_PORT ?? 4020),
  emulatorUrl: process.env.SERVICE_URL ?? "http://127.0.0.1:4010",
  publishableKey: process.env.SERVICE_PUBLISHABLE_KEY ?? "svc_pk_test_personal",
  workspaceId: process.env.SERVICE_WORKSPACE_ID ?? "preview-shop-example-com",
});
console.log(`Preview storefront: ${preview.url}`);
const stop = () => void preview.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
