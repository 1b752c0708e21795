/**
 * An object made on its first use: every property read goes to what `create()` returned, called
 * once. For objects that read the configuration or open connections when made, so that importing
 * their module does neither (the Prisma client, the Shopify app).
 */
export function lazyObject<T extends object>(create: () => T): T {
  let made: T | undefined;
  const target = (): T => (made ??= create());
  return new Proxy({} as T, {
    get(_, property) {
      const object = target();
      const value: unknown = Reflect.get(object, property, object);
      return typeof value === "function" ? (value as () => unknown).bind(object) : value;
    },
    has: (_, property) => Reflect.has(target(), property),
    set: (_, property, value) => Reflect.set(target(), property, value),
  });
}
