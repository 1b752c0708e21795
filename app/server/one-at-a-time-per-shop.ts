/**
 * Work a webhook asks for after its answer, one run per shop at a time: a call during a run asks
 * for one more (its work, the latest asked), so the last run starts after the last call. The
 * returned promise resolves when the shop's runs are done (tests). `work` handles its own errors.
 */
export function oneAtATimePerShop(): (
  shopDomain: string,
  work: () => Promise<void>,
) => Promise<void> {
  const running = new Map<string, Promise<void>>();
  const again = new Map<string, () => Promise<void>>();
  return (shopDomain, work) => {
    const under = running.get(shopDomain);
    if (under) {
      again.set(shopDomain, work);
      return under;
    }
    const run = (async () => {
      for (let next: (() => Promise<void>) | undefined = work; next; next = again.get(shopDomain)) {
        again.delete(shopDomain);
        await next();
      }
    })().finally(() => running.delete(shopDomain));
    running.set(shopDomain, run);
    return run;
  };
}
