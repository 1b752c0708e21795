/**
 * What recognises a shopper in the service's events without being their data: their email, their
 * phone's digits and their chat threads, as marks that customers/redact keeps only as keyed hashes
 * (./redaction-hashes.server.ts, stored by app/models/redacted-shoppers.server.ts). Pure.
 */

export interface ShopperMark {
  kind: "email" | "phone" | "thread";
  value: string;
}

/** Lower case and trimmed; null when empty. */
export function emailKey(email: unknown): string | null {
  if (typeof email !== "string") return null;
  const key = email.trim().toLowerCase();
  return key === "" ? null : key;
}

/** Digits only, so "555-625-1199" and "(555) 625 1199" match; too short to mean anything is none. */
export function phoneDigits(phone: unknown): string | null {
  const digits = (typeof phone === "string" ? phone : "").replace(/\D/g, "");
  return digits.length >= 6 ? digits : null;
}

function marks(email: unknown, phone: unknown, threads: readonly string[]): ShopperMark[] {
  const out: ShopperMark[] = threads.map((value) => ({ kind: "thread", value }));
  const e = emailKey(email);
  const p = phoneDigits(phone);
  if (e !== null) out.push({ kind: "email", value: e });
  if (p !== null) out.push({ kind: "phone", value: p });
  return out;
}

/** A customer of a privacy request, and the chat threads found to be theirs. */
export function marksOfCustomer(
  customer: { email?: string | null; phone?: string | null },
  threads: readonly string[],
): ShopperMark[] {
  return marks(customer.email, customer.phone, threads);
}

/** What of a shopper an event names: its thread, and a contact form's or handoff's email and phone. */
export function marksOfEvent(event: {
  threadId: string | null;
  data: Record<string, unknown>;
}): ShopperMark[] {
  const customer = event.data.customer;
  const fromCustomer =
    typeof customer === "object" && customer !== null ? (customer as Record<string, unknown>) : {};
  return [
    ...marks(event.data.email, event.data.phone, event.threadId === null ? [] : [event.threadId]),
    ...marks(fromCustomer.email, fromCustomer.phone, []),
  ];
}
