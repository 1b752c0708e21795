/**
 * The service names a workspace after the storefront's domain: the host name in lower case with
 * every dot replaced by a hyphen (spec §5.6). Accepts a bare host or any URL; scheme, port, path,
 * credentials and a trailing dot are dropped, and international names become punycode, as a
 * browser's Origin header would carry them.
 */
export function workspaceIdFromDomain(domainOrUrl: string): string {
  const trimmed = domainOrUrl.trim();
  if (trimmed === "") throw new InvalidDomainError(domainOrUrl);
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let host: string;
  try {
    host = new URL(withScheme).hostname;
  } catch {
    throw new InvalidDomainError(domainOrUrl);
  }
  host = host.replace(/\.$/, "").toLowerCase();
  if (host === "" || host.startsWith("[") || !/^[a-z0-9.-]+$/.test(host)) {
    throw new InvalidDomainError(domainOrUrl);
  }
  // A domain name has at most 253 characters and 63 per label (RFC 1035); URL parsing alone
  // accepts any length, and a 10,000-character "workspace" would be saved and shown as is.
  if (host.length > 253 || host.split(".").some((label) => label.length > 63)) {
    throw new InvalidDomainError(domainOrUrl.slice(0, 80));
  }
  return host.replace(/\./g, "-");
}

export class InvalidDomainError extends Error {
  constructor(input: string) {
    super(`"${input}" is not a domain name or URL a workspace id can be made from`);
    this.name = "InvalidDomainError";
  }
}

/** A workspace id as the app stores and compares it: trimmed, no trailing dot, lower case, dots as hyphens. */
export function normalizedWorkspaceId(workspaceId: string): string {
  return workspaceId.trim().replace(/\.$/, "").toLowerCase().replaceAll(".", "-");
}
