/**
 * Folds the events of one chat thread into its Inbox entry. Pure and order-free: the events are
 * sorted before folding and the handoff state only moves forward, so retried, duplicated and
 * out-of-order deliveries (handoff.resolved before handoff.accepted) give the same entry.
 */

export const HANDOFF_STATES = ["none", "requested", "accepted", "resolved"] as const;
export type HandoffState = (typeof HANDOFF_STATES)[number];

/** The events that make an Inbox entry; the other events feed Insights only. */
export const INBOX_EVENT_TYPES = [
  "contact.submitted",
  "handoff.requested",
  "handoff.accepted",
  "handoff.resolved",
] as const;

const STATE_OF: Record<string, HandoffState> = {
  "handoff.requested": "requested",
  "handoff.accepted": "accepted",
  "handoff.resolved": "resolved",
};

interface ThreadEvent {
  eventId: string;
  eventType: string;
  occurredAt: Date;
  data: Record<string, unknown>;
}

export interface InboxEntry {
  name: string | null;
  email: string | null;
  phone: string | null;
  message: string | null;
  handoffState: HandoffState;
  contactSubmitted: boolean;
  firstAt: Date;
  lastAt: Date;
}

const MAX_FIELD = 5_000;

function text(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim().slice(0, MAX_FIELD);
  return trimmed === "" ? null : trimmed;
}

function rank(state: HandoffState): number {
  return HANDOFF_STATES.indexOf(state);
}

export function foldThread(events: readonly ThreadEvent[]): InboxEntry | null {
  const relevant = events
    .filter((event) => (INBOX_EVENT_TYPES as readonly string[]).includes(event.eventType))
    .sort(
      (a, b) =>
        a.occurredAt.getTime() - b.occurredAt.getTime() || a.eventId.localeCompare(b.eventId),
    );
  const first = relevant[0];
  const last = relevant.at(-1);
  if (!first || !last) return null;
  // What the shopper typed in the contact form beats the customer block of handoff.requested;
  // within each, the later event wins.
  const fromHandoff: Partial<Record<"name" | "email", string>> = {};
  const fromContact: Partial<Record<"name" | "email" | "phone" | "message", string>> = {};
  let state: HandoffState = "none";
  let contactSubmitted = false;
  for (const event of relevant) {
    const eventState = STATE_OF[event.eventType];
    if (eventState && rank(eventState) > rank(state)) state = eventState;
    if (event.eventType === "contact.submitted") {
      contactSubmitted = true;
      for (const key of ["name", "email", "phone", "message"] as const) {
        const value = text(event.data[key]);
        if (value !== null) fromContact[key] = value;
      }
    }
    if (event.eventType === "handoff.requested") {
      const customer = event.data.customer;
      if (typeof customer === "object" && customer !== null) {
        const { name, email } = customer as Record<string, unknown>;
        const n = text(name);
        const e = text(email);
        if (n !== null) fromHandoff.name = n;
        if (e !== null) fromHandoff.email = e;
      }
    }
  }
  return {
    name: fromContact.name ?? fromHandoff.name ?? null,
    email: fromContact.email ?? fromHandoff.email ?? null,
    phone: fromContact.phone ?? null,
    message: fromContact.message ?? null,
    handoffState: state,
    contactSubmitted,
    firstAt: first.occurredAt,
    lastAt: last.occurredAt,
  };
}
