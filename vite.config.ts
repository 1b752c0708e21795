import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type Plugin } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

// The Shopify CLI passes the public URL as SHOPIFY_APP_URL; HMR must reach the dev server through it.
const appUrl = new URL(process.env.SHOPIFY_APP_URL || "http://localhost");
const port = Number(process.env.PORT || 3000);
const hmr =
  appUrl.hostname === "localhost" || appUrl.hostname === "127.0.0.1"
    ? { protocol: "ws", host: "localhost", port: 64999, clientPort: 64999 }
    : {
        protocol: "wss",
        host: appUrl.hostname,
        port: Number(process.env.FRONTEND_PORT) || 8002,
        clientPort: 443,
      };

/**
 * `npm run dev` (Shopify CLI -> `remix vite:dev`) has no app/cli/serve.ts: the dev server starts
 * the app server's process work itself once it listens, as startAppServer does for `npm start`
 * (startServerProcess in app/entry.server.tsx: configuration check, write-ahead logging, the
 * background work unless BACKGROUND_WORK=off), in the same module graph that answers requests.
 */
function startServerProcessOnListen(): Plugin {
  return {
    name: "catalog-chat:start-server-process",
    apply: "serve",
    configureServer(server) {
      server.httpServer?.once("listening", () => {
        server
          .ssrLoadModule("/app/entry.server.tsx")
          .then((entry) => entry.startServerProcess({ background: true }))
          .catch((error: unknown) => console.error("The app server could not start", error));
      });
    },
  };
}

export default defineConfig({
  server: {
    allowedHosts: [appUrl.hostname],
    cors: { preflightContinue: true },
    port,
    hmr,
    fs: { allow: ["app", "node_modules"] },
  },
  plugins: [
    remix({
      ignoredRouteFiles: ["**/.*"],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
        v3_singleFetch: true,
        v3_routeConfig: true,
      },
    }),
    tsconfigPaths(),
    startServerProcessOnListen(),
  ],
  build: { assetsInlineLimit: 0 },
  optimizeDeps: { include: ["@shopify/app-bridge-react", "@shopify/polaris"] },
});
