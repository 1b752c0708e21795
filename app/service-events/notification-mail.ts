/**
 * The notification email of one Inbox entry, written so that nothing a shopper types can shape it:
 * each field is one line (line breaks, tabs and other control characters become spaces), quoted,
 * and cut to a length; Reply-To is one plain address that passes a strict check, or none; the
 * subject is cut at a word, never inside one.
 */

export interface InboxEntryForMail {
  name: string | null;
  email: string | null;
  phone: string | null;
  message: string | null;
  contactSubmitted: boolean;
}

export interface NotificationContent {
  subject: string;
  text: string;
  replyTo: string | undefined;
}

/** The longest each field may be in the email (characters, after it is made one line). */
export const FIELD_LIMITS = { name: 100, email: 254, phone: 40, message: 1000 } as const;
const SUBJECT_NAME_LIMIT = 60;

/** Anything that could end or break a line, or is invisible: C0/C1 controls, separators, BOM. */
const BREAKING =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]+/g;

/** One line of plain text at most `limit` characters, cut at a word when one is near. */
export function singleLine(value: string, limit: number): string {
  const line = value.replace(BREAKING, " ").replace(/\s+/g, " ").trim();
  return cutAtWord(line, limit);
}

function cutAtWord(line: string, limit: number): string {
  const chars = Array.from(line);
  if (chars.length <= limit) return line;
  const head = chars.slice(0, limit - 1).join("");
  const space = head.lastIndexOf(" ");
  // A word longer than a third of the room (a link, a made-up string) is cut where it must be.
  const cut = space >= head.length * (2 / 3) ? head.slice(0, space) : head;
  return `${cut.trimEnd()}…`;
}

/** A field as the email shows it: in double quotes (inner ones escaped), or a dash-free "(not given)". */
function quoted(value: string | null, limit: number, missing: string): string {
  if (value === null) return missing;
  const line = singleLine(value, limit);
  if (!line) return missing;
  return `"${line.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/**
 * One address in its plain form (local@domain): no display name, no comma, no angle brackets, no
 * quotes or spaces, a domain with a dot; anything else gives no Reply-To at all.
 */
const PLAIN_ADDRESS =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export function replyAddress(email: string | null): string | undefined {
  const candidate = email?.trim();
  if (!candidate || candidate.length > FIELD_LIMITS.email) return undefined;
  return PLAIN_ADDRESS.test(candidate) ? candidate : undefined;
}

export function notificationContent(
  entry: InboxEntryForMail,
  inboxUrl: string,
): NotificationContent {
  const kind = entry.contactSubmitted ? "contact request" : "request to talk to a person";
  const name = entry.name === null ? "" : singleLine(entry.name, FIELD_LIMITS.name);
  const replyTo = replyAddress(entry.email);
  const who = name || replyTo || "a shopper";
  const subjectWho = cutAtWord(who, SUBJECT_NAME_LIMIT);
  const lines = [
    `A shopper sent a ${kind} through the chat on your store. What they typed is quoted below.`,
    "",
    `Name: ${quoted(entry.name, FIELD_LIMITS.name, "(not given)")}`,
    `Email: ${quoted(entry.email, FIELD_LIMITS.email, "(not given)")}`,
    `Phone: ${quoted(entry.phone, FIELD_LIMITS.phone, "(not given)")}`,
    `Message: ${quoted(entry.message, FIELD_LIMITS.message, "(none)")}`,
    "",
    replyTo
      ? "Replying to this email writes to the shopper's address."
      : "The shopper gave no address this email can reply to.",
    `Open the Inbox: ${inboxUrl}`,
  ];
  return { subject: `New ${kind} from ${subjectWho}`, text: lines.join("\n"), replyTo };
}
