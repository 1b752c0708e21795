import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import {
  Banner,
  type BannerHandles,
  BlockStack,
  Button,
  Card,
  Checkbox,
  FormLayout,
  InlineError,
  InlineStack,
  Layout,
  Link,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import { settingsPageOf } from "../admin/settings-page.server";
import { tierName } from "../index-service/tiers";
import { authenticateAdmin } from "../shopify/admin-auth.server";
import { saveSettings } from "../shop/save-settings.server";
import { AdminTitle } from "../components/admin-title";
import { ServiceEventsCard } from "../components/service-events-card";
import { MarketsCard } from "../components/markets-card";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shopDomain, admin } = await authenticateAdmin(request);
  // Which page of a long list of storefront URLs (decision 0049); anything else is the first.
  const storefrontsPage = Number(new URL(request.url).searchParams.get("storefronts")) || 1;
  return settingsPageOf(shopDomain, admin, storefrontsPage);
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shopDomain, admin } = await authenticateAdmin(request);
  const form = await request.formData();
  const text = (name: string) => String(form.get(name) ?? "");
  // A checked box is posted (whatever its value), an unchecked one is not.
  const ticked = (name: string) => form.has(name);
  return saveSettings(shopDomain, admin, {
    secretKey: text("secretKey"),
    publishableKey: text("publishableKey"),
    workspaceOverride: text("workspaceOverride"),
    syncProducts: ticked("syncProducts"),
    syncPages: ticked("syncPages"),
    syncArticles: ticked("syncArticles"),
    confirmRemoval: text("confirmRemoval"),
    // Only a page that listed the definitions changes the choice of metafields.
    metafields: form.has("metafieldsListed") ? form.getAll("metafield").map(String) : undefined,
    metaobjects: form.has("metaobjectsListed") ? form.getAll("metaobject").map(String) : undefined,
  });
};

/** The Settings checkboxes of what to sync, in the merchant's words. */
const SYNC_CHOICES = [
  ["Products", "syncProducts", undefined],
  [
    "Online store pages",
    "syncPages",
    "With the store's policies: refund, shipping, privacy, terms…",
  ],
  ["Blog articles", "syncArticles", undefined],
] as const;

/** Shopify's metafield types in the merchant's words (as Shopify admin names them). */
const TYPE_WORDS: Record<string, string> = {
  single_line_text_field: "Single line text",
  multi_line_text_field: "Multi-line text",
  rich_text_field: "Rich text",
  number_integer: "Integer",
  number_decimal: "Decimal",
  dimension: "Dimension",
  weight: "Weight",
  volume: "Volume",
  boolean: "True or false",
  rating: "Rating",
  date: "Date",
  date_time: "Date and time",
  url: "URL",
  color: "Color",
  money: "Money",
  link: "Link",
  json: "JSON",
  metaobject_reference: "Metaobject",
  product_reference: "Product",
  variant_reference: "Product variant",
  collection_reference: "Collection",
  page_reference: "Page",
  file_reference: "File",
};

function typeInWords(type: string): string {
  if (type.startsWith("list.")) {
    const item = type.slice(5);
    const words = typeInWords(item).toLowerCase();
    // What a list of references holds is counted: "List of products", "List of metaobjects".
    return `List of ${item.endsWith("_reference") ? `${words}s` : words}`;
  }
  return TYPE_WORDS[type] ?? type;
}

function entriesInWords(count: number): string {
  return count === 1 ? "1 entry" : `${count} entries`;
}

function countInWords(count: number, owner: string): string {
  const [one, many] =
    owner === "PRODUCTVARIANT" ? ["variant", "variants"] : ["product", "products"];
  return count === 1 ? `1 ${one} has a value` : `${count} ${many} have a value`;
}

export default function Settings() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const saving = useNavigation().state === "submitting";
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const [secretKey, setSecretKey] = useState("");
  const [publishableKey, setPublishableKey] = useState(data.publishableKey);
  const [workspaceOverride, setWorkspaceOverride] = useState(data.workspaceOverride);
  const [choices, setChoices] = useState({
    syncProducts: data.syncProducts,
    syncPages: data.syncPages,
    syncArticles: data.syncArticles,
  });
  const toggle = (key: keyof typeof choices) => (checked: boolean) =>
    setChoices((c) => ({ ...c, [key]: checked }));
  const [metafieldChoice, setMetafieldChoice] = useState<string[]>(data.chosenMetafields);
  const toggleMetafield = (key: string) => (checked: boolean) =>
    setMetafieldChoice((keys) =>
      checked ? [...keys.filter((k) => k !== key), key] : keys.filter((k) => k !== key),
    );
  const [metaobjectChoice, setMetaobjectChoice] = useState<string[]>(data.chosenMetaobjects);
  const toggleMetaobject = (type: string) => (checked: boolean) =>
    setMetaobjectChoice((types) =>
      checked ? [...types.filter((t) => t !== type), type] : types.filter((t) => t !== type),
    );
  const offered = (data.metafields ?? []).filter((m) => m.notOffered === null);
  const notOffered = (data.metafields ?? []).filter((m) => m.notOffered !== null);
  const problems = result && !result.ok ? result.problems : [];
  // "Keep them ticked" puts the boxes back and closes the question until the next save.
  const [keptFor, setKeptFor] = useState<typeof result>(undefined);
  const confirm = result && !result.ok && keptFor !== result ? result.confirm : undefined;
  // The same form again, with the removal it showed confirmed.
  const confirmRemoval = (token: string) => {
    if (!formRef.current) return;
    const form = new FormData(formRef.current);
    form.set("confirmRemoval", token);
    submit(form, { method: "post" });
  };
  const problemOf = (field: string) => problems.find((p) => p.field === field);
  // After a save, the focus goes where the answer is (keyboard and screen readers): the
  // "Settings saved" banner, or the first field to fix.
  const firstProblem = problems[0]?.field;
  const savedBanner = useRef<BannerHandles>(null);
  useEffect(() => {
    if (firstProblem) document.getElementById(firstProblem)?.focus();
    else if (result?.ok) savedBanner.current?.focus();
  }, [result, firstProblem]);
  const errorOf = (field: string) => {
    const problem = problemOf(field);
    if (!problem) return undefined;
    return "url" in problem && problem.url ? (
      <>
        {problem.message}{" "}
        <Link url={problem.url} target="_blank">
          Choose a plan
        </Link>
      </>
    ) : (
      problem.message
    );
  };

  return (
    <Page>
      <AdminTitle title="Settings" />
      <Layout>
        <Layout.Section>
          <Form method="post" ref={formRef}>
            <BlockStack gap="400">
              {result?.ok && (
                <Banner ref={savedBanner} tone="success" title="Settings saved">
                  <p>
                    {result.pairProved ? "Both keys work together" : "Both keys work"} (plan:{" "}
                    {tierName(result.tier)}).{" "}
                    {result.firstSyncStarted
                      ? "The first full sync has started: follow it on the Dashboard."
                      : result.moveStarted
                        ? "The catalogue is now being sent to the new account or workspace, and removed from the old one: follow it on the Dashboard."
                        : result.waitsForRun
                          ? "A sync is running: when it has finished, press Resync on the Dashboard to send the catalogue to the new place."
                          : ""}
                  </p>
                  {result.choicesMessage && <p>{result.choicesMessage}</p>}
                  {result.eventsProblem && <p>{result.eventsProblem}</p>}
                </Banner>
              )}
              {confirm && (
                <Banner tone="warning" title="Remove these items from the search?">
                  <BlockStack gap="200">
                    <p>{confirm.message}</p>
                    <InlineStack gap="200">
                      <Button
                        variant="primary"
                        tone="critical"
                        loading={saving}
                        onClick={() => confirmRemoval(confirm.token)}
                      >
                        Remove and save
                      </Button>
                      <Button
                        onClick={() => {
                          setChoices({
                            syncProducts: data.syncProducts,
                            syncPages: data.syncPages,
                            syncArticles: data.syncArticles,
                          });
                          setKeptFor(result);
                        }}
                      >
                        Keep them ticked
                      </Button>
                    </InlineStack>
                  </BlockStack>
                </Banner>
              )}
              {problems.length > 0 && (
                <Banner tone="critical" title="The settings were not saved">
                  <p>Fix what is marked below; nothing changed.</p>
                </Banner>
              )}
              <Card>
                <FormLayout>
                  <Text as="h2" variant="headingMd">
                    Search service keys
                  </Text>
                  <TextField
                    label="Secret key"
                    id="secretKey"
                    name="secretKey"
                    type="password"
                    autoComplete="off"
                    value={secretKey}
                    onChange={setSecretKey}
                    placeholder={
                      data.secretKeyLast4
                        ? `Saved key ending in ${data.secretKeyLast4} (leave empty to keep it)`
                        : "svc_sk_…"
                    }
                    helpText="Used by the app's server only, stored encrypted, never shown again."
                    error={errorOf("secretKey")}
                  />
                  <TextField
                    label="Publishable key"
                    id="publishableKey"
                    name="publishableKey"
                    autoComplete="off"
                    value={publishableKey}
                    onChange={setPublishableKey}
                    placeholder="svc_pk_…"
                    helpText="The storefront chat uses this key in shoppers' browsers. It can only search and chat, so it is safe to show."
                    error={errorOf("publishableKey")}
                  />
                </FormLayout>
              </Card>
              <Card>
                <FormLayout>
                  <Text as="h2" variant="headingMd">
                    Workspace
                  </Text>
                  <Text as="p">
                    Workspace id in use: <b>{data.workspaceId ?? "not set yet"}</b>
                    {data.derivedWorkspaceId && data.primaryDomain && !data.workspaceTakenFrom
                      ? ` (made from your storefront domain, ${data.primaryDomain})`
                      : ""}
                  </Text>
                  {data.workspaceTakenFrom && (
                    <Text as="p" id="workspace-taken">
                      Your storefront domain{data.primaryDomain ? `, ${data.primaryDomain},` : ""}{" "}
                      names workspace {data.workspaceTakenFrom}, which belongs to another store
                      connected to this app, so this store uses{" "}
                      {data.workspaceId ?? "none yet: enter one below"}.
                    </Text>
                  )}
                  <TextField
                    label="Use another workspace id"
                    id="workspaceOverride"
                    name="workspaceOverride"
                    autoComplete="off"
                    value={workspaceOverride}
                    onChange={setWorkspaceOverride}
                    placeholder={data.derivedWorkspaceId ?? "shop-example-com"}
                    helpText="Leave empty to use the one made from your storefront domain."
                    error={errorOf("workspaceOverride")}
                  />
                </FormLayout>
              </Card>
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    What to sync
                  </Text>
                  {SYNC_CHOICES.map(([label, name, helpText]) => (
                    <Checkbox
                      key={name}
                      id={name}
                      label={label}
                      helpText={helpText}
                      name={name}
                      value="on"
                      checked={choices[name]}
                      onChange={toggle(name)}
                    />
                  ))}
                  {problemOf("syncProducts") && (
                    <InlineError
                      fieldID="syncProducts"
                      message={problemOf("syncProducts")?.message ?? ""}
                    />
                  )}
                </BlockStack>
              </Card>
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    Product metafields
                  </Text>
                  <Text as="p">
                    Tick the facts shoppers ask about (material, care, size, ratings…): each is sent
                    with the products that have a value, named as in Shopify, as readable text the
                    assistant can quote. A variant metafield (a size&apos;s measurement, a
                    colour&apos;s finish) is sent on each variant and on its product as
                    &quot;variant: value&quot;. Saving a change sends every product again. One you
                    chose whose definition is deleted in Shopify, or hidden from your storefront,
                    leaves the search index by itself within minutes, without a save.
                  </Text>
                  {data.metafields === null ? (
                    <Text as="p" tone="caution">
                      The store&apos;s metafield definitions could not be read from Shopify just
                      now: reload the page to choose. Saving keeps your choice as it is.
                    </Text>
                  ) : (
                    <input type="hidden" name="metafieldsListed" value="1" />
                  )}
                  {data.metafields !== null && data.metafields.length === 0 && (
                    <Text as="p">
                      This store has no product metafield definitions yet (Shopify admin: Settings,
                      Custom data, Products).
                    </Text>
                  )}
                  {data.chosenGone.length > 0 && (
                    <Banner tone="warning" title="Chosen metafields no longer defined in Shopify">
                      <p>
                        {data.chosenGone.join(", ")}: the definition was deleted in Shopify, and the
                        app was not told (it needs permission to read your store&apos;s content:
                        open the app from Shopify&apos;s admin to approve it). Save to stop asking
                        for it; products then no longer carry it in the search index.
                      </p>
                    </Banner>
                  )}
                  {data.chosenWithdrawn.length > 0 && (
                    <Banner tone="warning" title="Chosen metafields no longer offered">
                      <ul>
                        {data.chosenWithdrawn.map((line) => (
                          <li key={line}>{line}</li>
                        ))}
                      </ul>
                      <p>
                        Until you save, products still carry them in the search index; saving takes
                        them out.
                      </p>
                    </Banner>
                  )}
                  {offered.map((m) => (
                    <Checkbox
                      key={m.choice}
                      id={`metafield-${m.choice}`}
                      label={`${m.name}: ${m.owner === "PRODUCTVARIANT" ? "variant" : "product"} metafield`}
                      helpText={`${m.suggested ? `${m.suggested}. ` : ""}${m.key} · ${typeInWords(m.type)} · ${countInWords(m.count, m.owner)}${m.caution ? `. ${m.caution}` : ""}`}
                      name="metafield"
                      value={m.choice}
                      checked={metafieldChoice.includes(m.choice)}
                      onChange={toggleMetafield(m.choice)}
                    />
                  ))}
                  {problemOf("metafields") && (
                    <InlineError
                      fieldID="metafields"
                      message={problemOf("metafields")?.message ?? ""}
                    />
                  )}
                  {notOffered.length > 0 && (
                    <BlockStack gap="100">
                      <Text as="h3" variant="headingSm">
                        Not offered
                      </Text>
                      <ul>
                        {notOffered.map((m) => (
                          <li key={m.choice}>
                            <Text as="span">
                              {m.name} ({m.owner === "PRODUCTVARIANT" ? "variant, " : ""}
                              {m.key}, {typeInWords(m.type)}): {m.notOffered}
                            </Text>
                          </li>
                        ))}
                      </ul>
                    </BlockStack>
                  )}
                </BlockStack>
              </Card>
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    Metaobjects
                  </Text>
                  <Text as="p">
                    Tick the definitions whose entries shoppers ask about (an FAQ, size charts, care
                    guides…): each entry is sent to the search as a page of content, its fields as
                    readable text, linked to its page on your online store when it has one.
                  </Text>
                  {data.metaobjects === null ? (
                    <Text as="p" tone="caution">
                      The store&apos;s metaobject definitions could not be read from Shopify just
                      now (or the app&apos;s permission to read metaobjects is not approved yet):
                      reload the page to choose. Saving keeps your choice as it is.
                    </Text>
                  ) : (
                    <input type="hidden" name="metaobjectsListed" value="1" />
                  )}
                  {data.metaobjects !== null && data.metaobjects.length === 0 && (
                    <Text as="p">
                      This store has no metaobject definitions yet (Shopify admin: Content,
                      Metaobjects).
                    </Text>
                  )}
                  {data.chosenMetaobjectsGone.length > 0 && (
                    <Banner tone="warning" title="Chosen metaobjects no longer defined in Shopify">
                      <p>
                        {data.chosenMetaobjectsGone.join(", ")}: the definition was deleted in
                        Shopify. Save to stop asking for it; its entries then leave the search
                        index.
                      </p>
                    </Banner>
                  )}
                  {(data.metaobjects ?? [])
                    .filter((m) => m.notOffered === null)
                    .map((m) => (
                      <Checkbox
                        key={m.type}
                        id={`metaobject-${m.type}`}
                        label={`${m.name}: metaobject entries`}
                        helpText={`${m.type} · ${entriesInWords(m.count)} · ${m.onlineStore ? "entries have pages on the online store" : "no online store pages (sent without a link)"}`}
                        name="metaobject"
                        value={m.type}
                        checked={metaobjectChoice.includes(m.type)}
                        onChange={toggleMetaobject(m.type)}
                      />
                    ))}
                  {(data.metaobjects ?? []).some((m) => m.notOffered !== null) && (
                    <BlockStack gap="100">
                      <Text as="h3" variant="headingSm">
                        Not offered
                      </Text>
                      <ul>
                        {(data.metaobjects ?? [])
                          .filter((m) => m.notOffered !== null)
                          .map((m) => (
                            <li key={m.type}>
                              <Text as="span">
                                {m.name} ({m.type}): {m.notOffered}
                              </Text>
                            </li>
                          ))}
                      </ul>
                    </BlockStack>
                  )}
                </BlockStack>
              </Card>
              <Button submit variant="primary" loading={saving}>
                Save
              </Button>
            </BlockStack>
          </Form>
        </Layout.Section>
        <Layout.Section>
          {/* One card across the list's pages: unsaved ticks on other pages are kept. */}
          <MarketsCard {...data.markets} />
        </Layout.Section>
        <Layout.Section>
          <ServiceEventsCard status={data.events} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
