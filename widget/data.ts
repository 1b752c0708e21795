/** Reading the service's loosely typed JSON: objects, trimmed strings and lists, or empty ones. */
export type Obj = Record<string, unknown>;

export const obj = (v: unknown): Obj => (v && typeof v === "object" ? (v as Obj) : {});
export const text = (v: unknown): string => (typeof v === "string" ? v.trim() : "");
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
