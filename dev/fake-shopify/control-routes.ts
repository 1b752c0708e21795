/** `/__fake/…`: the control API over HTTP, without authentication (a local fake only). */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BulkErrorCode } from "./bulk-operations";
import type { FakeShopifyControl } from "./control";
import { isObject, readText, sendJson } from "../http";
import { isShopPolicyType } from "./policies";
import type { NewProduct, ProductChanges } from "./store";

export const CONTROL_PREFIX = "/__fake";

const ENDPOINTS = [
  "GET    /__fake/state                       everything below in one object",
  "GET    /__fake/shop                        the shop",
  "POST   /__fake/shop                        {primaryDomain, webhook?: false}: also sends shop/update",
  "POST   /__fake/app                         {appUrl?, apiSecret?}: where webhooks go, how they are signed",
  "GET    /__fake/products                    every product (variants, collections, media as arrays)",
  "POST   /__fake/products                    {title, …, webhook?}: creates a product",
  "GET    /__fake/products/{id|gid}           one product",
  "PATCH  /__fake/products/{id|gid}           {title?, status?, published?, onlineStoreUrl?, variants?: [{id|index, price?, inventoryQuantity?, …}], …, webhook?}",
  "DELETE /__fake/products/{id|gid}?webhook=1 deletes a product",
  "POST   /__fake/purchases                   {variantId | productId, quantity?, webhook?: false}: sends inventory_levels/update and products/update",
  "POST   /__fake/products/{id}/publication   {published, webhook?: false}: off/on the Online Store, sends products/update",
  "PATCH  /__fake/collections/{id|gid}        {title?, handle?, webhook?: false}: sends collections/update",
  "DELETE /__fake/collections/{id|gid}        ?webhook=0 to lose it: sends collections/delete",
  "DELETE /__fake/collections/{id}/products/{id} ?webhook=0 to lose it: the product leaves, collections/update",
  "GET    /__fake/pages                       pages",
  "GET    /__fake/articles                    articles",
  "GET    /__fake/policies                    the shop's policies (shop.shopPolicies)",
  "GET    /__fake/presences                   web presences (URLs per locale, markets), locales, domains",
  "POST   /__fake/domains                     {host, webhook?: false}: connects a domain, sends domains/create",
  "PUT    /__fake/policies/{TYPE}             {body}: a merchant edits a policy (no webhook, as in Shopify); empty body removes it",
  "DELETE /__fake/policies/{TYPE}             removes the policy",
  "GET    /__fake/metaobjects                 metaobject entries (?type=faq)",
  "PATCH  /__fake/metaobjects/{gid}           {fields?: {key: value}, status?}: a merchant edits an entry (no webhook)",
  "DELETE /__fake/metaobjects/{gid}           a merchant deletes an entry (no webhook)",
  "GET    /__fake/requests                    Admin API requests (operation, cost, throttled, status)",
  "DELETE /__fake/requests                    forget them",
  "GET    /__fake/bulk-operations             bulk operations",
  "POST   /__fake/bulk-operations/{id}/expire the result URL expires (status EXPIRED)",
  "GET    /__fake/webhooks                    webhook deliveries (?topic=…)",
  "POST   /__fake/webhooks                    {topic, payload?, webhookId?, eventId?, triggeredAt?, hmac?}: sends one",
  "DELETE /__fake/webhooks                    forget deliveries",
  "GET    /__fake/metafields                  metafields",
  "GET    /__fake/theme/app-embed             {enabled}: the chat's app embed in the published theme",
  "POST   /__fake/theme/app-embed             {enabled: true|false}: the theme editor's toggle",
  "POST   /__fake/theme/file-bodies           {bodies: text|url|left-out}: how theme files come",
  "GET    /__fake/throttle                    the cost bucket",
  "POST   /__fake/throttle                    {currentlyAvailable}",
  "GET    /__fake/faults                      pending faults",
  "POST   /__fake/faults/bulk                 {status: FAILED, errorCode, partialData?} | {status: EXPIRED}",
  "POST   /__fake/faults/bulk-refusal         {text}: the next bulk query holding it is refused (OPERATION_IN_PROGRESS)",
  "POST   /__fake/faults/finish-webhook       {drop: true, count?} | {delayMs, count?} | {hold: true} | {hold: false} (release)",
  "POST   /__fake/faults/throttle             {count}: the next requests are THROTTLED",
  "DELETE /__fake/faults                      clear faults",
  "POST   /__fake/settled                     answers when no bulk operation or webhook is under way",
];

class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readText(req);
  if (text.trim() === "") return {};
  try {
    const body: unknown = JSON.parse(text);
    if (isObject(body)) return body;
  } catch {
    // Reported below.
  }
  throw new ControlError(400, "The body must be a JSON object");
}

const ERROR_CODES = new Set(["ACCESS_DENIED", "INTERNAL_SERVER_ERROR", "TIMEOUT"]);

export async function handleControl(
  control: FakeShopifyControl,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  try {
    await route(control, req, res, url);
  } catch (error) {
    const status = error instanceof ControlError ? error.status : 400;
    sendJson(res, status, { error: error instanceof Error ? error.message : String(error) });
  }
}

async function route(
  control: FakeShopifyControl,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const method = req.method ?? "GET";
  const path = url.pathname.slice(CONTROL_PREFIX.length).replace(/\/$/, "") || "/";
  const ok = (data: unknown) => sendJson(res, 200, data);
  const body = method === "GET" || method === "DELETE" ? {} : await jsonBody(req);

  switch (`${method} ${path}`) {
    case "GET /":
      return ok({ endpoints: ENDPOINTS });
    case "GET /state":
      return ok(control.snapshot());
    case "GET /shop":
      return ok(control.shop());
    case "POST /shop": {
      if (typeof body.primaryDomain !== "string")
        throw new ControlError(400, "Send {primaryDomain}");
      const delivery = await control.setPrimaryDomain(body.primaryDomain, {
        webhook: body.webhook !== false,
      });
      return ok({ shop: control.shop(), delivery });
    }
    case "POST /app":
      control.setApp({
        ...(body.appUrl === undefined ? {} : { appUrl: body.appUrl as string | null }),
        ...(body.apiSecret === undefined ? {} : { apiSecret: body.apiSecret as string | null }),
      });
      return ok(control.shop());
    case "GET /products":
      return ok(control.products());
    case "POST /products": {
      if (typeof body.title !== "string") throw new ControlError(400, "A product needs a title");
      const { webhook, ...input } = body;
      return ok(
        control.createProduct(input as unknown as NewProduct, { webhook: webhook === true }),
      );
    }
    case "GET /pages":
      return ok(control.pages());
    case "GET /articles":
      return ok(control.articles());
    case "GET /policies":
      return ok(control.policies());
    case "GET /presences":
      return ok(control.presences());
    case "POST /domains": {
      if (typeof body.host !== "string") throw new ControlError(400, "host is required");
      const { id } = control.addDomain(body.host, { webhook: body.webhook !== false });
      return ok({ id });
    }
    case "GET /requests":
      return ok(control.requests());
    case "DELETE /requests":
      control.clearRequests();
      return ok({ cleared: true });
    case "GET /bulk-operations":
      return ok(control.bulkOperations());
    case "GET /webhooks":
      return ok(control.webhookDeliveries(url.searchParams.get("topic") ?? undefined));
    case "POST /webhooks": {
      if (typeof body.topic !== "string") throw new ControlError(400, "Send {topic}");
      const options = Object.fromEntries(
        ["webhookId", "eventId", "triggeredAt", "hmac", "apiVersion"]
          .filter((key) => typeof body[key] === "string")
          .map((key) => [key, body[key] as string]),
      );
      return ok(await control.sendWebhook(body.topic, body.payload, options));
    }
    case "DELETE /webhooks":
      control.clearWebhookDeliveries();
      return ok({ cleared: true });
    case "GET /metafields":
      return ok(control.metafields());
    case "GET /theme/app-embed":
      return ok({ enabled: control.chatEmbedEnabled() });
    case "POST /theme/app-embed":
      if (typeof body.enabled !== "boolean") throw new ControlError(400, "Send {enabled: boolean}");
      control.setChatEmbed(body.enabled);
      return ok({ enabled: control.chatEmbedEnabled() });
    case "POST /theme/file-bodies":
      if (body.bodies !== "text" && body.bodies !== "url" && body.bodies !== "left-out") {
        throw new ControlError(400, 'Send {bodies: "text" | "url" | "left-out"}');
      }
      control.setThemeFileBodies(body.bodies);
      return ok({ bodies: body.bodies });
    case "GET /throttle":
      return ok(control.throttleStatus());
    case "POST /throttle":
      if (typeof body.currentlyAvailable !== "number") {
        throw new ControlError(400, "Send {currentlyAvailable}");
      }
      return ok(control.setAvailablePoints(body.currentlyAvailable));
    case "GET /faults":
      return ok(control.faults());
    case "DELETE /faults":
      control.clearFaults();
      return ok({ cleared: true });
    case "POST /faults/bulk-refusal":
      if (typeof body.text !== "string" || body.text === "") {
        throw new ControlError(400, "Send {text}");
      }
      control.refuseNextBulkQuery(body.text);
      return ok({ refused: body.text });
    case "POST /faults/bulk":
      if (body.status === "EXPIRED") control.expireNextBulkOperation();
      else if (body.status === "FAILED" && ERROR_CODES.has(String(body.errorCode))) {
        control.failNextBulkOperation(body.errorCode as BulkErrorCode, {
          partialData: body.partialData === true,
        });
      } else {
        throw new ControlError(
          400,
          "Send {status: FAILED, errorCode: ACCESS_DENIED|INTERNAL_SERVER_ERROR|TIMEOUT} or {status: EXPIRED}",
        );
      }
      return ok(control.faults());
    case "POST /faults/finish-webhook": {
      const count = typeof body.count === "number" ? body.count : 1;
      if (body.drop === true) control.dropFinishWebhooks(count);
      else if (typeof body.delayMs === "number") control.delayFinishWebhooks(body.delayMs, count);
      else if (body.hold === true) control.holdFinishWebhooks();
      else if (body.hold === false) control.releaseFinishWebhooks();
      else throw new ControlError(400, "Send {drop: true}, {delayMs} or {hold: true|false}");
      return ok(control.faults());
    }
    case "POST /faults/internal-error": {
      if (typeof body.operationName !== "string" || body.operationName === "") {
        throw new ControlError(400, "Send {operationName, count?}");
      }
      control.failNextOperation(
        body.operationName,
        typeof body.count === "number" ? body.count : 1,
      );
      return ok(control.faults());
    }
    case "POST /faults/throttle":
      control.throttleNextRequests(typeof body.count === "number" ? body.count : 1);
      return ok(control.faults());
    case "POST /settled":
      await control.settled();
      return ok({ settled: true });
  }

  const product = /^\/products\/([^/]+)$/.exec(path);
  if (product?.[1]) {
    const id = decodeURIComponent(product[1]);
    if (method === "GET") {
      const found = control.product(id);
      if (!found) throw new ControlError(404, `No product ${id}`);
      return ok(found);
    }
    if (method === "PATCH" || method === "POST" || method === "PUT") {
      if (!control.product(id)) throw new ControlError(404, `No product ${id}`);
      const { webhook, ...changes } = body;
      return ok(
        control.updateProduct(id, changes as ProductChanges, { webhook: webhook === true }),
      );
    }
    if (method === "DELETE") {
      const webhook = ["1", "true"].includes(url.searchParams.get("webhook") ?? "");
      if (!control.deleteProduct(id, { webhook })) throw new ControlError(404, `No product ${id}`);
      return ok({ deleted: true });
    }
  }
  const events = await shopEventRoute(control, method, path, body, url);
  if (events !== undefined) return ok(events);
  const expire = /^\/bulk-operations\/([^/]+)\/expire$/.exec(path);
  if (expire?.[1] && method === "POST") {
    const operation = control.expireBulkOperation(decodeURIComponent(expire[1]));
    if (!operation) throw new ControlError(404, "No such bulk operation");
    return ok(operation);
  }
  throw new ControlError(404, `No control route ${method} ${path}; GET /__fake lists them`);
}

/** Purchases, publication, collection and policy changes; undefined when the path is not one of them. */
async function shopEventRoute(
  control: FakeShopifyControl,
  method: string,
  path: string,
  body: Record<string, unknown>,
  url: URL,
): Promise<unknown> {
  const webhook = body.webhook !== false && url.searchParams.get("webhook") !== "0";
  if (method === "POST" && path === "/purchases") {
    const id = body.variantId ?? body.productId;
    if (typeof id !== "string" && typeof id !== "number") {
      throw new ControlError(400, "Send {variantId} or {productId}");
    }
    const quantity = typeof body.quantity === "number" ? body.quantity : 1;
    const { delivery, ...change } = control.purchase(id, quantity, { webhook });
    return { ...change, delivery: await delivery };
  }
  if (method === "GET" && path === "/metaobjects") {
    return control.metaobjects(url.searchParams.get("type") ?? undefined);
  }
  const metaobject = /^\/metaobjects\/(.+)$/.exec(path);
  if (metaobject?.[1] && (method === "PATCH" || method === "DELETE")) {
    const id = decodeURIComponent(metaobject[1]);
    if (method === "DELETE") {
      control.deleteMetaobject(id);
      return { deleted: id };
    }
    const fields = body.fields as Record<string, string> | undefined;
    const status = body.status === "DRAFT" || body.status === "ACTIVE" ? body.status : undefined;
    return control.updateMetaobject(id, {
      ...(fields ? { fields } : {}),
      ...(status ? { status } : {}),
    });
  }
  const policy = /^\/policies\/([A-Z_]+)$/.exec(path);
  if (policy?.[1] && (method === "PUT" || method === "DELETE")) {
    const type = policy[1];
    if (!isShopPolicyType(type)) throw new ControlError(404, `No policy type ${type}`);
    if (method === "DELETE") {
      control.removePolicy(type);
      return { removed: type };
    }
    if (typeof body.body !== "string") throw new ControlError(400, "Send {body}");
    return { policy: control.updatePolicy(type, body.body) };
  }
  const publication = /^\/products\/([^/]+)\/publication$/.exec(path);
  if (publication?.[1] && method === "POST") {
    if (typeof body.published !== "boolean") throw new ControlError(400, "Send {published}");
    return control.setPublished(decodeURIComponent(publication[1]), body.published, { webhook });
  }
  const member = /^\/collections\/([^/]+)\/products\/([^/]+)$/.exec(path);
  if (member?.[1] && member[2] && method === "DELETE") {
    const { delivery, ...change } = control.removeFromCollection(
      decodeURIComponent(member[1]),
      decodeURIComponent(member[2]),
      { webhook },
    );
    return { ...change, delivery: await delivery };
  }
  const collection = /^\/collections\/([^/]+)$/.exec(path);
  if (collection?.[1] && (method === "PATCH" || method === "DELETE")) {
    const id = decodeURIComponent(collection[1]);
    const changes = {
      ...(typeof body.title === "string" ? { title: body.title } : {}),
      ...(typeof body.handle === "string" ? { handle: body.handle } : {}),
    };
    const { delivery, ...change } =
      method === "DELETE"
        ? control.deleteCollection(id, { webhook })
        : control.updateCollection(id, changes, { webhook });
    return { ...change, delivery: await delivery };
  }
  return undefined;
}
