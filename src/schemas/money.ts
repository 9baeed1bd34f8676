// Money is added up in integer minor units (hundredths), never as floats: 0.1 + 0.2 must be 0.30.

/** Converts an amount with at most two decimals to whole hundredths. */
export function toMinorUnits(amount: number): number {
  return Math.round(amount * 100);
}

/** Converts whole hundredths back to an amount. */
export function fromMinorUnits(minor: number): number {
  return minor / 100;
}

/** The total of items: price x quantity minus each item's flat discount, in minor units. */
export function itemsTotalMinor(
  items: ReadonlyArray<{ price: number; purchasedQuantity: number; discount?: { value: number } | undefined }>,
): number {
  return items.reduce(
    (total, item) =>
      total +
      toMinorUnits(item.price) * item.purchasedQuantity -
      (item.discount ? toMinorUnits(item.discount.value) : 0),
    0,
  );
}
