import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { login } from "../../shopify/app.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  if (url.searchParams.get("shop")) {
    throw redirect(`/app?${url.searchParams.toString()}`);
  }
  return { showForm: Boolean(login) };
};

export default function Index() {
  const { showForm } = useLoaderData<typeof loader>();
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: 640, margin: "4rem auto" }}>
      <h1>Catalog Chat</h1>
      <p>
        Your whole catalogue, searchable and answerable by an AI shopping assistant on your
        storefront — kept in sync as you edit products.
      </p>
      {showForm && (
        <Form method="post" action="/auth/login">
          <label>
            Shop domain <input type="text" name="shop" placeholder="my-shop.myshopify.com" />
          </label>{" "}
          <button type="submit">Log in</button>
        </Form>
      )}
    </main>
  );
}
