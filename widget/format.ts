/**
 * Prices in the shopper's locale, labelled with a currency: the one a price names (the index
 * document's `currency`, ISO 4217) or else `fallback` (the shop's).
 */
export function priceFormatter(
  locale: string,
  fallback?: string,
): (n: number, currency?: string) => string {
  const formats = new Map<string, Intl.NumberFormat>();
  const format = (currency: string) => {
    let nf = formats.get(currency);
    if (!nf) {
      const options: Intl.NumberFormatOptions = {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      };
      try {
        nf = new Intl.NumberFormat(locale, currency ? { style: "currency", currency } : options);
      } catch {
        // an unknown locale or currency code: the number alone
        nf = new Intl.NumberFormat(undefined, options);
      }
      formats.set(currency, nf);
    }
    return nf;
  };
  return (n, currency) =>
    format(/^[A-Z]{3}$/.test(currency ?? "") ? currency! : fallback || "").format(n);
}
