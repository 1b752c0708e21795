/**
 * How the admin writes moments: one formatter for every page, in UTC, so the server's render and
 * the browser's agree and the Inbox and the Dashboard read alike ("22 Nov 2026, 17:05 UTC").
 */
const MOMENT = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

const DAY = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

export function formatMoment(moment: Date | string): string {
  return `${MOMENT.format(new Date(moment))} UTC`;
}

/** A calendar day, such as a quota's reset: "1 Dec 2026", as `formatMoment` writes its day. */
export function formatDay(moment: Date | string): string {
  return DAY.format(new Date(moment));
}

/** "1 item", "3 items": a count with its noun in the right number. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString("en-GB")} ${count === 1 ? singular : plural}`;
}
