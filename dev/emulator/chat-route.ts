/**
 * `POST /chat` (NDJSON stream by default, one JSON envelope with `stream: false`) and
 * `POST /feedback`. Each chat request counts 1 against the chat quota; a reply that recommends
 * products or posts counts 1 recommendation (with none left, replies carry no cards).
 */
import { randomUUID } from "node:crypto";
import { planChat, parseOfferResponse, type ChatPlan, type ChatStep } from "./assistant";
import { quotaExceeded, reply, validationError, type ApiContext } from "./context";
import { sleep } from "./http-utils";
import { isObject } from "../http";
import { quotaUsage } from "./limits";
import { normalizeWorkspaceId } from "./workspace";

const NDJSON_HEADERS = {
  "Content-Type": "application/x-ndjson; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
};

function shortId(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
}

export async function chat(context: ApiContext): Promise<void> {
  const { core, account, now } = context;
  const body = context.body;
  if (!isObject(body)) throw validationError("The body must be a JSON object");
  const threadId = body.threadId;
  if (typeof threadId !== "string" || threadId.trim() === "") {
    throw validationError("threadId is required and must be a non-empty string");
  }
  const offerResponse = parseOfferResponse(body.offerResponse);
  if (offerResponse === "invalid") {
    throw validationError("offerResponse must be {domain, actionId, formData?}");
  }
  const message = typeof body.message === "string" ? body.message : "";
  if (!offerResponse && message.trim() === "") {
    throw validationError("message is required and must be a non-empty string");
  }
  const workspaceId =
    context.workspaceId ??
    (typeof body.workspaceId === "string" ? normalizeWorkspaceId(body.workspaceId) : undefined);
  if (account.remaining("chatMessages", now) < 1) {
    const { limit, resetDate } = quotaUsage(account, "chatMessages", now);
    throw quotaExceeded("chat messages", limit, resetDate);
  }
  account.consume("chatMessages", 1, now);

  const { thread, isNew } = core.thread(account.name, workspaceId, threadId);
  thread.messages += 1;
  const emit = core.hub.emit.bind(core.hub, account.name);
  const where = { thread_id: threadId, workspace_id: workspaceId ?? null };
  if (isNew) {
    emit("chat.conversation_started", {
      ...where,
      visitor_id: typeof body.visitorId === "string" ? body.visitorId : null,
    });
  }
  emit("chat.message_sent", { ...where, message, message_index: thread.messages - 1 });

  const workspaces = core.store.scope(account.name, workspaceId);
  const plan = planChat({
    message,
    threadId,
    offerResponse,
    products: workspaces.flatMap((workspace) => [...workspace.products.values()]),
    posts: workspaces.flatMap((workspace) => [...workspace.posts.values()]),
    handoff: thread.handoff,
    mayRecommend: account.remaining("recommendations", now) > 0,
    newConversationId: () => shortId("conv"),
  });
  if (plan.recommended) account.consume("recommendations", 1, now);
  if (plan.handoff) {
    const { state, contact } = plan.handoff;
    thread.handoff = state;
    const conversation = { ...where, conversation_id: state.conversationId };
    emit("handoff.requested", {
      ...conversation,
      customer: { name: contact.name, email: contact.email },
    });
    emit("contact.submitted", { thread_id: threadId, ...contact });
    emit("handoff.accepted", {
      ...conversation,
      agent: { id: state.agent.id, name: state.agent.name },
    });
  }

  if (body.stream === false) await replyWhole(context, plan, threadId);
  else await stream(context, plan);
}

async function stream(context: ApiContext, plan: ChatPlan): Promise<void> {
  const { res, core } = context;
  res.writeHead(200, NDJSON_HEADERS);
  res.flushHeaders();
  res.socket?.setNoDelay(true);
  let closed = false;
  const whenClosed = new Promise<void>((resolve) =>
    res.once("close", () => {
      closed = true;
      resolve();
    }),
  );
  core.activeStreams += 1;
  try {
    let previousWasToken = false;
    for (const step of plan.steps) {
      if (closed) return;
      const isToken = step.kind === "event" && step.type === "text_delta";
      if (isToken && previousWasToken) await Promise.race([sleep(core.tokenDelayMs), whenClosed]);
      previousWasToken = isToken;
      if (closed) return;
      switch (step.kind) {
        case "event":
          res.write(`${lineOf(step)}\n`);
          break;
        case "raw":
          res.write(`${step.text}\n`);
          break;
        case "hold":
          await Promise.race([core.hold(), whenClosed]);
          break;
        case "cut":
          await new Promise<void>((resolve) => res.write(step.partial, () => resolve()));
          res.destroy();
          return;
      }
    }
    res.end();
  } finally {
    core.activeStreams -= 1;
  }
}

function lineOf(step: Extract<ChatStep, { kind: "event" }>): string {
  return JSON.stringify(
    step.metadata
      ? { type: step.type, data: step.data, metadata: step.metadata }
      : { type: step.type, data: step.data },
  );
}

/** `stream: false`: the same answer as one object (shape: docs/index-service.md). */
async function replyWhole(context: ApiContext, plan: ChatPlan, threadId: string): Promise<void> {
  const data = {
    threadId,
    text: "",
    products: [] as unknown[],
    posts: [] as Array<Record<string, unknown>>,
    prompts: [] as unknown[],
    offer: undefined as unknown,
    offerResult: undefined as unknown,
    errors: [] as string[],
    complete: false,
    metadata: undefined as unknown,
  };
  for (const step of plan.steps) {
    if (step.kind === "hold") await context.core.hold();
    if (step.kind === "cut") {
      context.res.destroy();
      return;
    }
    if (step.kind !== "event") continue;
    if (step.metadata) data.metadata = step.metadata;
    const value = step.data as Record<string, unknown>;
    switch (step.type) {
      case "text_delta":
        data.text += String(step.data);
        break;
      case "bubble_termination":
        if (data.text !== "" && !data.text.endsWith("\n\n")) data.text += "\n\n";
        break;
      case "product":
        data.products.push(value);
        break;
      case "post":
        data.posts.push({ ...value, summary: "" });
        break;
      case "post_delta": {
        const post = data.posts.find((candidate) => candidate.id === value.id);
        if (post) post.summary = `${String(post.summary ?? "")}${String(value.delta)}`;
        break;
      }
      case "prompts":
        data.prompts.push(...(step.data as unknown[]));
        break;
      case "domain_offer":
        data.offer = value;
        break;
      case "domain_offer_success":
        data.offerResult = value;
        break;
      case "error":
        data.errors.push(String(value.error));
        break;
      case "complete":
        data.complete = true;
        break;
    }
  }
  data.text = data.text.trimEnd();
  reply(context, data, "chatMessages");
}

const RATINGS = ["positive", "negative"];

export function feedback(context: ApiContext): void {
  const body = context.body;
  if (!isObject(body)) throw validationError("The body must be a JSON object");
  const { threadId, rating, comment, messageIndex } = body;
  if (typeof threadId !== "string" || threadId.trim() === "") {
    throw validationError("threadId is required and must be a non-empty string");
  }
  if (typeof rating !== "string" || !RATINGS.includes(rating)) {
    throw validationError(`rating must be one of ${RATINGS.join(", ")}`);
  }
  if (comment !== undefined && typeof comment !== "string") {
    throw validationError("comment must be a string");
  }
  if (
    messageIndex !== undefined &&
    (typeof messageIndex !== "number" || !Number.isInteger(messageIndex) || messageIndex < 0)
  ) {
    throw validationError("messageIndex must be an integer >= 0");
  }
  const record = {
    id: shortId("fb"),
    account: context.account.name,
    workspaceId: context.workspaceId,
    threadId,
    rating: rating as "positive" | "negative",
    at: context.core.clock.iso(),
    ...(comment === undefined ? {} : { comment }),
    ...(messageIndex === undefined ? {} : { messageIndex }),
  };
  context.core.feedback.push(record);
  context.core.hub.emit(context.account.name, "feedback.submitted", {
    thread_id: threadId,
    workspace_id: context.workspaceId ?? null,
    rating,
    comment: comment ?? null,
    message_index: messageIndex ?? null,
  });
  reply(context, { id: record.id, threadId, rating }, "chatMessages");
}
