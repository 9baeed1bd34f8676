import { describe, expect, it } from 'vitest';
import { nearestName } from '../../src/schemas/nearest-name.js';

describe('the name a mistyped one was meant to be', () => {
  it('is the candidate a few letters away, case aside', () => {
    expect(nearestName('singel', ['single', 'recurring'])).toBe('single');
    expect(nearestName('SendingDate', ['sendingDate', 'expiryDate'])).toBe('sendingDate');
    expect(nearestName('weekly', ['single', 'recurring'])).toBeUndefined();
  });

  it('is the field a short name is the last part of, or a word of', () => {
    const columns = ['customer.name', 'customer.mobile', 'customer.email', 'items[0].itemCode', 'items[0].nameEn'];
    expect(nearestName('mobile', columns)).toBe('customer.mobile');
    // The field's own name, not a field a few letters away (note).
    expect(nearestName('name', [...columns, 'note'])).toBe('customer.name');
    expect(nearestName('Email', columns)).toBe('customer.email');
    expect(nearestName('emial', columns)).toBe('customer.email');
    expect(nearestName('code', columns)).toBe('items[0].itemCode');
    expect(nearestName('code', ['itemCode', 'purchasedQuantity', 'price', 'nameEn'])).toBe('itemCode');
    // A word two candidates share names neither; a name of two letters is too short to tell.
    expect(nearestName('quantity', ['purchasedQuantity', 'quantityLimit'])).toBeUndefined();
    expect(nearestName('en', ['itemCode', 'nameEn'])).toBeUndefined();
    expect(nearestName('phone', columns)).toBeUndefined();
  });

  it('is the one field a name cut short begins', () => {
    const refund = ['invoiceNumber', 'amount', 'reason', 'orderReferenceNumber'];
    expect(nearestName('orderReference', refund)).toBe('orderReferenceNumber');
    expect(nearestName('OrderRef', refund)).toBe('orderReferenceNumber');
    // Two fields that hold it, or a beginning too short to tell, name neither.
    expect(nearestName('customer', ['customer.name', 'customer.mobile'])).toBeUndefined();
    expect(nearestName('quantity', ['quantityLimit', 'purchasedQuantity'])).toBeUndefined();
    expect(nearestName('ord', refund)).toBeUndefined();
  });
});
