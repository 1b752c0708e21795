import type { ActionFunctionArgs } from "@remix-run/node";
import { WEBHOOK_SIGNATURE_HEADER } from "../index-service/protocol";
import { receiveServiceEvent } from "../service-events/receive.server";
import { readBodyWithinLimit } from "../shopify/webhook-body-limit.server";
import { answeredBusyForRetry } from "../server/busy-answer";

/** The largest service event body taken; a contact form or a chat message is far smaller. */
const MAX_SERVICE_EVENT_BYTES = 256 * 1024;

/** The service's event deliveries for one shop (named by an opaque id): verify, store, answer. */
const deliver = async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return new Response(null, { status: 405 });
  // An oversized body is a thrown 413, before it is buffered.
  const rawBody = await readBodyWithinLimit(request, MAX_SERVICE_EVENT_BYTES);
  const outcome = await receiveServiceEvent({
    publicId: params.publicId ?? "",
    rawBody,
    signature: request.headers.get(WEBHOOK_SIGNATURE_HEADER),
  });
  if (outcome.status === 401) return new Response("Unauthorized", { status: 401 });
  if (outcome.status === 400) return new Response(outcome.message, { status: 400 });
  return new Response(null, { status: 200 });
};

export const loader = () => new Response(null, { status: 405 });

export const action = answeredBusyForRetry(deliver);
