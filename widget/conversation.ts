/**
 * The open chat: transcript, one streamed request at a time, offers, retries and feedback.
 */
import { postChat, postFeedback } from "./api";
import type { ChatController, OfferModule, ProductsModule } from "./bridge";
import type { WidgetConfig } from "./config";
import { createDialog } from "./dialog";
import { priceFormatter } from "./format";
import { fill } from "./labels";
import type { Entry, Turn } from "./model";
import { markdownStream } from "./markdown";
import {
  bubbleText,
  renderEntry,
  updatePostSummary,
  type BotEntry,
  type RenderContext,
} from "./render";
import { openSession } from "./session";
import { streamEvents, type StreamEvent } from "./stream";

const MAX_SAVED_ENTRIES = 200;

/** A message that is only a greeting ("Hi!", "Bonjour", "Guten Tag 👋"): its reply is no answer. */
const GREETING =
  /^[^\p{L}]*(hi|hello|hey|hallo|moin|bonjour|salut|hola|ciao|guten tag)[^\p{L}]*$/iu;
const isGreeting = (turn?: Turn) => GREETING.test(turn?.message ?? "");

export function mountConversation(
  cfg: WidgetConfig,
  root: ShadowRoot,
  launcher: HTMLButtonElement,
  assets: { offers(): Promise<OfferModule>; products(): Promise<ProductsModule> },
): ChatController {
  const { labels } = cfg;
  const session = openSession(cfg.workspaceId || cfg.apiUrl);
  const saved = session.load();
  let entries: Entry[] = saved.entries.filter((e) => e.k !== "error");
  let lastTurn = saved.lastTurn;
  let sent = saved.sent ?? 0;
  let abort: AbortController | undefined;
  let current: BotEntry | undefined;
  /** The assistant's last bubble in the current answer: the one that offers feedback. */
  let answer: BotEntry | undefined;
  const nodes = new Map<Entry, HTMLElement>();
  /** Entries whose streamed text is not drawn yet: drawn once per frame, however many tokens. */
  const dirty = new Set<Entry>();
  let frame = 0;
  /** The streaming drawer of each bubble being written: only what arrived is drawn. */
  const streams = new WeakMap<HTMLElement, (text: string) => void>();
  const streamOf = (bubble: HTMLElement) => {
    let stream = streams.get(bubble);
    if (!stream) streams.set(bubble, (stream = markdownStream(bubble)));
    return stream;
  };

  const view = createDialog(cfg, root, launcher, {
    send: (text) => void send({ message: text }, text),
    stop: () => abort?.abort(),
  });

  /** The transcript kept for the next page: the latest entries, errors left out. */
  const save = () =>
    session.save({
      entries: entries.filter((e) => e.k !== "error").slice(-MAX_SAVED_ENTRIES),
      lastTurn,
      sent,
    });

  const append = (entry: Entry) => {
    if (!entries.includes(entry)) entries.push(entry);
    const el = renderEntry(entry, ctx);
    nodes.set(entry, el);
    view.log.append(el);
    view.scrollToEnd();
  };

  const redraw = (entry: Entry) => {
    const old = nodes.get(entry);
    if (!old) return;
    const label = view.hasFocus(old) ? root.activeElement?.getAttribute("aria-label") : undefined;
    const el = renderEntry(entry, ctx);
    old.replaceWith(el);
    nodes.set(entry, el);
    // Keep focus where it was (the feedback buttons are redrawn when pressed).
    if (label !== undefined) {
      const same = [...el.querySelectorAll<HTMLElement>("[aria-label]")].find(
        (b) => b.getAttribute("aria-label") === label,
      );
      if (same) same.focus();
      else view.focusInput();
    }
  };

  const remove = (entry: Entry) => {
    nodes.get(entry)?.remove();
    nodes.delete(entry);
    entries = entries.filter((e) => e !== entry);
  };

  const flush = () => {
    cancelAnimationFrame(frame);
    frame = 0;
    for (const entry of dirty) {
      const el = nodes.get(entry);
      if (!el) continue;
      if (entry.k === "bot") streamOf(el.querySelector(".bubble")!)(entry.text);
      if (entry.k === "posts") entry.items.forEach((item) => updatePostSummary(el, item));
    }
    dirty.clear();
    view.scrollToEnd();
    save();
  };

  const touch = (entry: Entry) => {
    dirty.add(entry);
    frame ||= requestAnimationFrame(flush);
  };

  const showError = (text: string, retryAt?: number, q?: string) => {
    append({ k: "error", text, retryAt, q });
    view.announce(text);
  };

  /** The current bubble is complete: draw it in full, offer feedback and announce it once. */
  const finishBubble = (stopped?: boolean) => {
    const bubble = current;
    if (!bubble) return;
    current = undefined;
    dirty.delete(bubble);
    bubble.done = true;
    bubble.stopped = stopped;
    redraw(bubble);
    view.announce(bubbleText(nodes.get(bubble)));
  };

  const group = (k: "products" | "posts", item: never) => {
    const last = entries[entries.length - 1];
    if (last?.k === k) {
      last.items.push(item);
      redraw(last);
    } else append({ k, items: [item] });
  };

  const handle = (event: StreamEvent) => {
    switch (event.type) {
      case "text":
        if (current && current.agent !== event.agent) finishBubble();
        if (!current) {
          current = { k: "bot", text: "", agent: event.agent };
          // The assistant's answers can be rated; live agents', replies to a greeting and
          // confirmations of an offer cannot.
          if (event.agent === undefined && !lastTurn?.offerResponse && !isGreeting(lastTurn)) {
            answer = current;
          }
          append(current);
        }
        current.text += event.text;
        touch(current);
        view.progress();
        break;
      case "product":
      case "post":
        group(`${event.type}s`, event.item as never);
        break;
      case "post_delta":
        for (const entry of entries) {
          const item = entry.k === "posts" && entry.items.find((p) => p.id === event.id);
          if (item) {
            item.summary += event.delta;
            touch(entry);
          }
        }
        break;
      case "prompts":
        append({ k: "prompts", items: event.items });
        break;
      case "offer":
        finishBubble();
        append({ k: "offer", data: event.data });
        view.announce(event.message);
        break;
      case "offer_success": {
        const text = !event.ok
          ? labels.agentFailed
          : event.agent
            ? fill(labels.agentJoined, { name: event.agent })
            : labels.agentRequested;
        finishBubble();
        append({ k: "notice", text });
        view.announce(text);
        break;
      }
      case "progress":
        view.progress(event.message || labels.working);
        break;
      case "bubble":
      case "complete":
        finishBubble();
    }
  };

  /** Sends a turn; `echo` is what the shopper's bubble shows (none when retrying). */
  async function send(turn: Turn, echo?: string): Promise<void> {
    if (abort || !turn.message.trim()) return;
    for (const e of [...entries]) if (e.k === "prompts" || e.k === "error") remove(e);
    if (echo) append({ k: "user", text: echo });
    lastTurn = turn;
    save();
    const controller = (abort = new AbortController());
    view.setBusy(true);
    let completed = false;
    let errored = false;
    try {
      const res = await postChat(cfg, session.threadId, turn, controller.signal);
      if (res instanceof Response) {
        sent += 1;
        for await (const event of streamEvents(res.body!, controller.signal)) {
          completed ||= event.type === "complete";
          errored ||= event.type === "error" || event.type === "cut";
          handle(event);
        }
      } else if (res.kind === "quota") {
        showError(labels.errorQuota, undefined, turn.message);
      } else if (res.kind === "rate") {
        showError(fill(labels.errorRateLimit, { n: res.seconds }), Date.now() + res.seconds * 1000);
      } else {
        showError(
          res.kind === "network"
            ? labels.errorNetwork
            : res.kind === "auth"
              ? labels.errorAuth
              : labels.errorGeneric,
        );
      }
    } catch (_err) {
      // a broken stream: reported below unless the shopper stopped it
    }
    const stopped = controller.signal.aborted;
    finishBubble(stopped);
    // Feedback is offered once per answer, under its last bubble, numbered by request.
    if (answer) {
      answer.index = sent - 1;
      redraw(answer);
      answer = undefined;
    }
    if ((errored || !completed) && !stopped && !entries.some((e) => e.k === "error")) {
      showError(labels.errorStream);
    }
    abort = undefined;
    view.setBusy(false);
    view.progress();
    flush();
  }

  const ctx: RenderContext = {
    labels,
    price: priceFormatter(cfg.locale, cfg.currency),
    ...assets,
    reveal: view.reveal,
    onPrompt(text) {
      view.focusInput();
      void send({ message: text }, text);
    },
    onOffer(entry, offerResponse, label) {
      entry.answered = true;
      // A sent form leaves the transcript: the shopper's bubble shows what they filled in (not
      // the button's label), and the service's confirmation follows it. A form left on screen,
      // greyed out, read as if it still waited for them. Buttons stay, showing the choice.
      if (offerResponse.formData) remove(entry);
      view.focusInput();
      const filled = Object.values(offerResponse.formData ?? {}).filter(Boolean);
      void send({ message: label, offerResponse }, filled.join("\n") || label);
    },
    onRate(entry, rating) {
      if (entry.index === undefined || entry.rating === rating) return;
      entry.rating = rating;
      redraw(entry);
      save();
      void postFeedback(cfg, session.threadId, rating, entry.index);
    },
    onRetry(entry) {
      remove(entry);
      view.focusInput();
      if (lastTurn) void send(lastTurn);
    },
  };

  // A stream cut short by leaving the page is finished as it stands.
  for (const e of entries) if (e.k === "bot") e.done = true;
  if (!entries.length) {
    if (cfg.greeting) entries.push({ k: "bot", text: cfg.greeting, done: true });
    if (cfg.prompts.length) entries.push({ k: "prompts", items: cfg.prompts });
  }
  entries.forEach(append);

  return { open: view.open, close: view.close };
}
