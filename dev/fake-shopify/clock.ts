/** Time as the fake shows it: Shopify's DateTime format, whole seconds, UTC. */

export function isoSeconds(time: number): string {
  return new Date(time).toISOString().replace(/\.\d{3}Z$/, "Z");
}
