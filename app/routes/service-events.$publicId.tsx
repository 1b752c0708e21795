import type { ActionFunctionArgs } from "@remix-run/node";
import { WEBHOOK_SIGNATURE_HEADER } from "../index-service/protocol";
import { notifyInboxEntry } from "../service-events/notify.server";
import { BodyTooLargeError, readLimitedBody } from "../service-events/read-body.server";
import { receiveServiceEvent } from "../service-events/receive.server";

/** The service's event deliveries for one shop (named by an opaque id): verify, store, answer. */
export const action = async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return new Response(null, { status: 405 });
  let rawBody: string;
  try {
    rawBody = await readLimitedBody(request);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return new Response(error.message, { status: 413 });
    throw error;
  }
  const outcome = await receiveServiceEvent({
    publicId: params.publicId ?? "",
    rawBody,
    signature: request.headers.get(WEBHOOK_SIGNATURE_HEADER),
  });
  if (outcome.status === 401) return new Response("Unauthorized", { status: 401 });
  if (outcome.status === 400) return new Response(outcome.message, { status: 400 });
  if (outcome.newInboxEntry && outcome.threadId) {
    notifyInboxEntry(outcome.shopDomain, outcome.threadId);
  }
  return new Response(null, { status: 200 });
};

export const loader = () => new Response(null, { status: 405 });
