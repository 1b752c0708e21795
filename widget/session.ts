/**
 * Per browser session (sessionStorage, so per tab): the thread id the service knows the
 * conversation by, and the transcript, so it is restored when the shopper moves to another page.
 * Storage may be unavailable (privacy modes): then the conversation lives as long as the page.
 */
import type { Entry, Turn } from "./model";

export interface Saved {
  entries: Entry[];
  lastTurn?: Turn;
  /** Chat requests the service accepted in this thread (numbers answers for feedback). */
  sent?: number;
}

export interface Session {
  threadId: string;
  load(): Saved;
  save(saved: Saved): void;
}

export function newThreadId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return "web_" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function openSession(scope: string): Session {
  const prefix = `catalog-chat:${scope}:`;
  const read = (key: string): string | null => {
    try {
      return sessionStorage.getItem(prefix + key);
    } catch {
      return null;
    }
  };
  const write = (key: string, value: string) => {
    try {
      sessionStorage.setItem(prefix + key, value);
    } catch {
      // full or disabled: keep going without persistence
    }
  };
  let threadId = read("thread") ?? "";
  if (!/^web_\w+$/.test(threadId)) write("thread", (threadId = newThreadId()));
  return {
    threadId,
    load() {
      try {
        const saved = JSON.parse(read("transcript") ?? "null") as Saved | null;
        if (Array.isArray(saved?.entries)) return saved;
      } catch {
        // a damaged transcript is dropped
      }
      return { entries: [] };
    },
    save: (saved) => write("transcript", JSON.stringify(saved)),
  };
}
