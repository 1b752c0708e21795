/**
 * How the service names a workspace (spec §5.6): a domain in lower case with dots turned into
 * hyphens; a supplied domain or URL is converted. Written again here, not imported from app/.
 */

export function normalizeWorkspaceId(input: string): string | undefined {
  const trimmed = input.trim();
  if (trimmed === "") return undefined;
  let host = trimmed;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) || /[/:]/.test(trimmed)) {
    try {
      const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
      host = new URL(withScheme).hostname;
    } catch {
      return undefined;
    }
  } else if ([...trimmed].some((char) => char.charCodeAt(0) > 0x7f)) {
    try {
      host = new URL(`https://${trimmed}`).hostname;
    } catch {
      return undefined;
    }
  }
  const id = host.replace(/\.$/, "").toLowerCase().replace(/\./g, "-");
  return /^[a-z0-9-]+$/.test(id) ? id : undefined;
}
