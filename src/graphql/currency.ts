/**
 * Converted prices of the Supply schema (SupPricePoint.convertedPrice), from the configured rate table
 * only (CURRENCY_RATES: units of each currency per US dollar). A price whose currency, or the currency
 * asked for, has no rate is not converted: convertedCurrency then names the price's own currency,
 * conversionRate is 1, and the answer carries one warning saying so.
 */
export interface ConvertedPrice {
  convertedPrice: number;
  convertedCurrency: string;
  conversionRate: number;
}

export interface Money {
  /** The currency asked for (upper case). */
  readonly asked: string;
  convert(price: number, currency: string): ConvertedPrice;
  /** A price in US dollars, or null when its currency has no rate. */
  toUsd(price: number, currency: string): number | null;
}

/** The warning of prices that could not be converted for want of a rate of `currency`. */
export const noRateWarning = (currency: string) =>
  `No exchange rate for ${currency} is configured: such prices are not converted (convertedCurrency names their currency).`;

/** Rounds a converted price to 6 decimals (float noise aside). */
const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** Conversion into `asked`; `warn` is told once when a currency has no rate. */
export function money(rates: Readonly<Record<string, number>>, asked: string, warn: (message: string) => void): Money {
  const target = asked.trim().toUpperCase();
  const toRate = rates[target];
  let warned = false;
  const missing = (currency: string) => {
    if (warned) return;
    warned = true;
    warn(noRateWarning(toRate === undefined ? target : currency));
  };
  return {
    asked: target,
    convert(price, currency) {
      const from = currency.toUpperCase();
      if (from === target) return { convertedPrice: price, convertedCurrency: from, conversionRate: 1 };
      const fromRate = rates[from];
      if (toRate === undefined || fromRate === undefined) {
        missing(from);
        return { convertedPrice: price, convertedCurrency: from, conversionRate: 1 };
      }
      const rate = toRate / fromRate;
      return { convertedPrice: round(price * rate), convertedCurrency: target, conversionRate: rate };
    },
    toUsd(price, currency) {
      const r = rates[currency.toUpperCase()];
      return r === undefined ? null : price / r;
    },
  };
}
