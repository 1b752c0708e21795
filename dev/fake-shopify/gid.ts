/** Shopify global ids: `gid://shopify/<Type>/<id>`. */

const GID = /^gid:\/\/shopify\/([A-Za-z0-9_]+)\/([^/?#]+)$/;

export function parseGid(gid: string): { type: string; id: string } | null {
  const match = GID.exec(gid);
  return match?.[1] && match[2] ? { type: match[1], id: match[2] } : null;
}

export function gidType(gid: unknown): string | null {
  return typeof gid === "string" ? (parseGid(gid)?.type ?? null) : null;
}

export function gid(type: string, id: string | number): string {
  return `gid://shopify/${type}/${id}`;
}

/** Accepts a gid or a bare numeric id (as webhooks and tests use them) of `type`. */
export function toGid(type: string, idOrGid: string | number): string {
  return typeof idOrGid === "number" || /^\d+$/.test(idOrGid) ? gid(type, idOrGid) : idOrGid;
}

export function numericPart(gidOrId: string): string {
  return parseGid(gidOrId)?.id ?? gidOrId;
}
