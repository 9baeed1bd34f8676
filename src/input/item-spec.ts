import type { FieldIssue } from '../errors.js';
import { readNumberText, type InexactNumber } from '../schemas/exact-json.js';
import { nearestName } from '../schemas/nearest-name.js';

/** The keys an `--item` spec takes, with the field each sets. */
const itemKeys: Record<string, string> = {
  code: 'itemCode',
  itemcode: 'itemCode',
  qty: 'purchasedQuantity',
  quantity: 'purchasedQuantity',
  purchasedquantity: 'purchasedQuantity',
  price: 'price',
  en: 'nameEn',
  nameen: 'nameEn',
  ar: 'nameAr',
  namear: 'nameAr',
  discount: 'discount',
};

const numericFields = new Set(['purchasedQuantity', 'price']);

/** What is wrong with one part of an --item value: a key without a value, a value without a key, or a key unknown. */
function partProblem(part: string, previous: string | undefined, field: string | undefined, key: string): string {
  if (part.includes('=')) return unknownKeyMessage(key);
  if (field) return `"${part}" has no value: write ${part}=VALUE`;
  // After KEY=VALUE, most often the rest of a value that held a comma: en=Shirt, blue.
  if (previous?.includes('='))
    return `"${part}" has no KEY=: a value with a comma goes in quotes, e.g. en="Shirt, blue"`;
  return `"${part}" is not KEY=VALUE: write ${itemExample}`;
}

/** `"dicount" is not a key of an item; did you mean discount? Keys: ...`. */
function unknownKeyMessage(key: string): string {
  const meant = nearestName(key, Object.keys(itemKeys));
  return `"${key}" is not a key of an item${meant ? `; did you mean ${meant}?` : '.'} Keys: code, qty, price, en, ar, discount`;
}

const itemExample = 'code=SKU1,qty=2,price=10.50,en=Shirt,ar=قميص (discount=5 optional)';

/** Splits `a=1,b="x, y"` on commas outside quotes; quotes may be "..." or '...', and \ escapes the next character. */
export function splitSpec(spec: string): string[] | undefined {
  const parts: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (let index = 0; index < spec.length; index++) {
    const char = spec[index] as string;
    if (char === '\\' && index + 1 < spec.length) {
      current += spec[++index];
    } else if (quote) {
      if (char === quote) quote = undefined;
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === ',') {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  if (quote) return undefined;
  parts.push(current);
  return parts;
}

/**
 * Text that looks like a number becomes one, so the schema checks its range; one that no JSON number carries exactly
 * (`90071992547409.93`) is kept as typed for the schema to refuse; anything else stays text.
 */
export function numberOrText(value: string): number | InexactNumber | string {
  return readNumberText(value) ?? value;
}

/**
 * Parses one `--item` value, e.g. `code=SKU1,qty=2,price=10.50,en=Shirt,ar=قميص,discount=5`, into an item of the
 * wire shape (discount=5 becomes a FLAT discount). `position` is the item's index, for messages.
 */
export function parseItemSpec(spec: string, position: number): { item: Record<string, unknown>; issues: FieldIssue[] } {
  const path = `items[${position}]`;
  const parts = splitSpec(spec);
  if (!parts) return { item: {}, issues: [{ path: `${path} (--item)`, message: 'has an unclosed quote' }] };
  const item: Record<string, unknown> = {};
  const issues: FieldIssue[] = [];
  // Values in order ("SKU1,Shirt,2,10") are one mistake, said once, rather than one "is not KEY=VALUE" per value.
  if (parts.length > 1 && parts.every((part) => !part.includes('='))) {
    return {
      item,
      issues: [{ path: `${path} (--item)`, message: `"${spec.trim()}" is not KEY=VALUE pairs: write ${itemExample}` }],
    };
  }
  // The key each field was first given by: a second one would silently replace the first value.
  const given = new Map<string, string>();
  for (const [index, part] of parts.entries()) {
    if (part.trim() === '') continue;
    const separator = part.indexOf('=');
    const key = (separator === -1 ? part : part.slice(0, separator)).trim();
    const field = itemKeys[key.toLowerCase()];
    if (separator === -1 || !field) {
      issues.push({ path: `${path} (--item)`, message: partProblem(part.trim(), parts[index - 1], field, key) });
      continue;
    }
    const value = part.slice(separator + 1).trim();
    const first = given.get(field);
    if (first !== undefined) {
      const same = first.toLowerCase() === key.toLowerCase() ? `"${key}"` : `"${key}" (as "${first}")`;
      issues.push({ path: `${path} (--item)`, message: `${same} is given twice in one item: give it once` });
      continue;
    }
    given.set(field, key);
    if (field === 'discount') item.discount = { value: numberOrText(value), type: 'FLAT' };
    else item[field] = numericFields.has(field) ? numberOrText(value) : value;
  }
  return { item, issues };
}

/** Writes an item back as an `--item` value, quoting what needs it (for --print-command). */
export function formatItemSpec(item: {
  itemCode: string;
  purchasedQuantity: number;
  price: number;
  nameEn: string;
  nameAr: string;
  discount?: { value: number } | undefined;
}): string {
  const quote = (value: string) =>
    /[,"'\\=]/.test(value) || value !== value.trim() ? `"${value.replace(/(["\\])/g, '\\$1')}"` : value;
  const parts = [
    `code=${quote(item.itemCode)}`,
    `qty=${item.purchasedQuantity}`,
    `price=${item.price}`,
    `en=${quote(item.nameEn)}`,
    `ar=${quote(item.nameAr)}`,
  ];
  if (item.discount) parts.push(`discount=${item.discount.value}`);
  return parts.join(',');
}
