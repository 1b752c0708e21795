/** Prices in the shop's currency and the shopper's locale. */
export function priceFormatter(locale: string, currency?: string): (n: number) => string {
  const options: Intl.NumberFormatOptions = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  let nf: Intl.NumberFormat;
  try {
    nf = new Intl.NumberFormat(locale, currency ? { style: "currency", currency } : options);
  } catch {
    // an unknown locale or currency code: the number alone
    nf = new Intl.NumberFormat(undefined, options);
  }
  return (n) => nf.format(n);
}
