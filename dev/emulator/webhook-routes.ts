/** Webhook management: create, list, get, update (PUT), delete, and test deliveries. */
import { reply, validationError, type ApiContext } from "./context";
import { isObject } from "../http";
import { isWebhookEvent, publicWebhook, validateWebhookInput } from "./webhooks";

const id = (context: ApiContext) => context.params.id ?? "";

export function createWebhook(context: ApiContext): void {
  const input = validateWebhookInput(context.body, false);
  const webhook = context.core.hub.create(context.account.name, input);
  reply(context, publicWebhook(webhook), "products", 201);
}

export function listWebhooks(context: ApiContext): void {
  reply(context, context.core.hub.list(context.account.name).map(publicWebhook), "products");
}

export function getWebhook(context: ApiContext): void {
  reply(
    context,
    publicWebhook(context.core.hub.get(context.account.name, id(context))),
    "products",
  );
}

export function updateWebhook(context: ApiContext): void {
  const changes = validateWebhookInput(context.body, true);
  const webhook = context.core.hub.update(context.account.name, id(context), changes);
  reply(context, publicWebhook(webhook), "products");
}

export function deleteWebhook(context: ApiContext): void {
  context.core.hub.remove(context.account.name, id(context));
  reply(context, { id: id(context), deleted: true }, "products");
}

/** Answers after the first attempt: `{event_id, delivery_id, delivered, status_code?, error?}`. */
export async function testWebhook(context: ApiContext): Promise<void> {
  const webhook = context.core.hub.get(context.account.name, id(context));
  const body = context.body;
  const payload = isObject(body) ? body.test_payload : undefined;
  if (!isObject(payload) || !isWebhookEvent(payload.event_type)) {
    throw validationError("test_payload must be {event_type: <a webhook event>, data: {...}}");
  }
  if (payload.data !== undefined && !isObject(payload.data)) {
    throw validationError("test_payload.data must be an object");
  }
  const delivery = await context.core.hub.sendTest(
    webhook,
    payload.event_type,
    isObject(payload.data) ? payload.data : {},
  );
  const attempt = delivery.attempts[0];
  reply(
    context,
    {
      event_id: delivery.eventId,
      delivery_id: delivery.id,
      delivered: delivery.state === "delivered",
      ...(attempt?.statusCode === undefined ? {} : { status_code: attempt.statusCode }),
      ...(attempt?.error === undefined ? {} : { error: attempt.error }),
    },
    "products",
  );
}
