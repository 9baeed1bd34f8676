// Money is read as decimal text and added up in integer minor units (hundredths), never as floats: 0.1 + 0.2 must be
// 0.30, and a quantity times a price must not round. Sums use BigInt, so no total passes 2^53 unnoticed.

/**
 * The most significant digits an amount or a count may have: a JSON number is a double, which carries every decimal
 * of 15 significant digits exactly (a 16th may not read back: 90071992547409.93 reads as 90071992547409.94).
 */
export const maxSignificantDigits = 15;
/** The largest amount (amount, price, discount, the items' total), in minor units: 9,999,999,999,999.99. */
export const maxAmountMinor = 10n ** BigInt(maxSignificantDigits) - 1n;
/** The largest amount as a merchant reads it. */
export const maxAmountText = '9,999,999,999,999.99';
/** The largest amount as a number (for JSON Schema's `maximum`). */
export const maxAmount = 9_999_999_999_999.99;
/** The largest quantity of an item: 15 digits. */
export const maxQuantity = 999_999_999_999_999;
/** The largest quantity as a merchant reads it. */
export const maxQuantityText = '999,999,999,999,999';

/** A decimal number as written: its value is `(-1)^negative x digits x 10^exponent`, digits without zeros at the ends. */
export interface Decimal {
  negative: boolean;
  /** The significant digits; `0` for zero. */
  digits: string;
  exponent: number;
}

const decimalPattern = /^\s*(-)?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?\s*$/;

/** Reads decimal text (`12.50`, `-3`, `1e308`, `1.5e-7`) without a float; undefined when it is not a number. */
export function parseDecimal(text: string): Decimal | undefined {
  const match = decimalPattern.exec(text);
  if (!match) return undefined;
  const [, minus, whole = '', fraction = '', power = '0'] = match;
  const all = `${whole}${fraction}`.replace(/^0+/, '');
  const trimmed = all.replace(/0+$/, '');
  if (trimmed === '') return { negative: false, digits: '0', exponent: 0 };
  return {
    negative: minus === '-',
    digits: trimmed,
    exponent: Number(power) - fraction.length + (all.length - trimmed.length),
  };
}

/** The decimal text of a JS number, exactly as JSON.stringify writes it (the shortest text that reads back). */
export function decimalOfNumber(value: number): Decimal | undefined {
  return Number.isFinite(value) ? parseDecimal(String(value)) : undefined;
}

/** True when a JSON number written `text` reads back as the same value (it survives a double). */
export function readsBackExactly(text: string): boolean {
  const written = parseDecimal(text);
  const read = decimalOfNumber(Number(text));
  return (
    written !== undefined &&
    read !== undefined &&
    written.digits === read.digits &&
    written.exponent === read.exponent &&
    (written.negative === read.negative || written.digits === '0')
  );
}

/** A decimal as plain text without an exponent or zeros at the ends: `14.5`, `100`, `0.25`. */
export function decimalToText(decimal: Decimal): string {
  const { digits, exponent } = decimal;
  const sign = decimal.negative ? '-' : '';
  if (exponent >= 0) return `${sign}${digits}${'0'.repeat(exponent)}`;
  const padded = digits.padStart(-exponent + 1, '0');
  return `${sign}${padded.slice(0, exponent)}.${padded.slice(exponent)}`;
}

/** The number of decimals a decimal has once trailing zeros are dropped. */
export function decimalPlaces(decimal: Decimal): number {
  return Math.max(0, -decimal.exponent);
}

/** Whole hundredths of a decimal with at most two decimals (a larger scale is cut to hundredths: check first). */
export function decimalToMinor(decimal: Decimal): bigint {
  const shift = decimal.exponent + 2;
  const digits = BigInt(decimal.digits);
  const magnitude = shift >= 0 ? digits * 10n ** BigInt(shift) : digits / 10n ** BigInt(-shift);
  return decimal.negative ? -magnitude : magnitude;
}

/**
 * Whole hundredths of `amount` when it is the double nearest some m / 100 with |m| < 10^15 (an amount of at most two
 * decimals within the ceiling): then m is exact as a double, `amount * 100` is within 0.25 of m, and m / 100 gives
 * back `amount`. Undefined for any other number, which the decimal text answers. Nearly every amount takes this
 * path, which costs no text: a bulk run checks some 300,000 of them.
 */
export function minorOfTwoDecimals(amount: number): number | undefined {
  if (!(Math.abs(amount) < 1e13)) return undefined;
  const minor = Math.round(amount * 100);
  return minor / 100 === amount ? minor : undefined;
}

/** Whole hundredths of an amount with at most two decimals, read from its decimal text, never `amount * 100`. */
export function toMinorUnits(amount: number): bigint {
  const minor = minorOfTwoDecimals(amount);
  if (minor !== undefined) return BigInt(minor);
  const decimal = decimalOfNumber(amount);
  if (!decimal) throw new RangeError(`${amount} is not an amount`);
  return decimalToMinor(decimal);
}

/** An amount of whole hundredths as the JSON number that carries it exactly (within the ceiling). */
export function fromMinorUnits(minor: bigint): number {
  return Number(minorToText(minor));
}

/** An amount of whole hundredths as decimal text with two decimals (`1234.50`), exact at any size. */
export function minorToText(minor: bigint): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** What an item's total is made of. */
export interface PricedItem {
  price: number;
  purchasedQuantity: number;
  discount?: { value: number } | undefined;
}

/** One item's total: price x quantity minus its flat discount, in minor units. */
export function itemTotalMinor(item: PricedItem): bigint {
  return (
    toMinorUnits(item.price) * BigInt(item.purchasedQuantity) - (item.discount ? toMinorUnits(item.discount.value) : 0n)
  );
}

/** The total of items: price x quantity minus each item's flat discount, in minor units. */
export function itemsTotalMinor(items: ReadonlyArray<PricedItem>): bigint {
  return items.reduce((total, item) => total + itemTotalMinor(item), 0n);
}
