let lastDomain = "";
let lastOrigin = "";

/** Origin of the shop's primary domain, given as a bare host (https assumed) or as a URL. */
export function storefrontOrigin(primaryDomain: string): string {
  if (primaryDomain === lastDomain) return lastOrigin;
  const trimmed = primaryDomain.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new Error(`"${primaryDomain}" is not a domain name or URL`);
  }
  if (url.hostname === "") throw new Error(`"${primaryDomain}" is not a domain name or URL`);
  lastDomain = primaryDomain;
  lastOrigin = url.origin;
  return lastOrigin;
}

function segment(handle: string): string {
  return encodeURIComponent(handle);
}

export function productUrl(primaryDomain: string, handle: string): string {
  return `${storefrontOrigin(primaryDomain)}/products/${segment(handle)}`;
}

export function pageUrl(primaryDomain: string, handle: string): string {
  return `${storefrontOrigin(primaryDomain)}/pages/${segment(handle)}`;
}

export function articleUrl(primaryDomain: string, blogHandle: string, handle: string): string {
  return `${storefrontOrigin(primaryDomain)}/blogs/${segment(blogHandle)}/${segment(handle)}`;
}
