import { data, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { NavMenu } from "@shopify/app-bridge-react";
import { InlineStack } from "@shopify/polaris";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { EmbeddedContext } from "../components/embedded";
import { AdminLocaleContext } from "../components/admin-locale";
import { appFrameOf, localeCookie } from "../admin/app-frame.server";
import { adminLocaleOf } from "../format";
import { authenticateAdmin } from "../shopify/admin-auth.server";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shopDomain } = await authenticateAdmin(request);
  const locale = adminLocaleOf(request);
  const frame = await appFrameOf(shopDomain, locale);
  return new URL(request.url).searchParams.has("locale")
    ? data(frame, { headers: { "Set-Cookie": localeCookie(locale) } })
    : frame;
};

export default function AppFrame() {
  const { apiKey, embedded, inboxUnread, locale } = useLoaderData<typeof loader>();
  const inbox = inboxUnread > 0 ? `Inbox (${inboxUnread})` : "Inbox";
  return (
    <AppProvider isEmbeddedApp={embedded} apiKey={apiKey}>
      <EmbeddedContext.Provider value={embedded}>
        <AdminLocaleContext.Provider value={locale}>
          {embedded ? (
            <NavMenu>
              <Link to="/app" rel="home">
                Dashboard
              </Link>
              <Link to="/app/inbox">{inbox}</Link>
              <Link to="/app/insights">Insights</Link>
              <Link to="/app/settings">Settings</Link>
            </NavMenu>
          ) : (
            <nav
              aria-label="App"
              style={{
                padding: "0.75rem 1.25rem",
                borderBottom: "1px solid #e3e3e3",
                background: "#fff",
              }}
            >
              <InlineStack gap="400">
                <Link to="/app">Dashboard</Link>
                <Link to="/app/inbox">{inbox}</Link>
                <Link to="/app/insights">Insights</Link>
                <Link to="/app/settings">Settings</Link>
                <span style={{ color: "#616161" }}>Offline demo</span>
              </InlineStack>
            </nav>
          )}
          <Outlet />
        </AdminLocaleContext.Provider>
      </EmbeddedContext.Provider>
    </AppProvider>
  );
}

// Shopify needs Remix to catch some thrown responses so that their headers are included.
export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
