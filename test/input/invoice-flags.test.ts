import { describe, expect, it } from 'vitest';
import { invoiceFromFlags, withFlagName, type InvoiceFlags } from '../../src/input/invoice-flags.js';
import { invoiceSchemas, validate, type InvoiceKind } from '../../src/schemas/index.js';

/** The issues of a flag-only invoice of `kind`, with flag names, as the command reports them. */
function flagIssues(kind: InvoiceKind, flags: InvoiceFlags) {
  const { invoice, issues } = invoiceFromFlags(flags);
  const result = validate(invoiceSchemas[kind], invoice);
  return [...issues, ...(result.success ? [] : result.issues.map(withFlagName))];
}

const completeFlags: InvoiceFlags = {
  customerName: 'Amr Hassan',
  customerMobile: '+201012345678',
  amount: '100',
  sendingDate: '2030-03-01',
  expiryDate: '2030-03-31T23:59:59.999Z',
  releaseDate: '2030-03-01T00:00:00.000Z',
  note: 'Order 1043',
};

const recurringFlags: InvoiceFlags = {
  ...completeFlags,
  cycleType: 'MONTH',
  cycleValue: '1',
  discountValue: '0',
  discountType: 'FLAT',
};

describe('invoiceFromFlags', () => {
  it('maps every flag to its request field, numbers as numbers and the rest as typed', () => {
    const { invoice, issues } = invoiceFromFlags({
      customerName: 'Amr Hassan',
      customerMobile: '+201012345678',
      customerEmail: 'amr@example.com',
      amount: '20.30',
      sendingDate: 'today',
      expiryDate: '+30d',
      releaseDate: '2030-03-01',
      businessReference: 'INV-1043',
      note: 'Order 1043',
      lang: 'ar-eg',
      method: 'BOTH',
      alertOnExpiry: false,
      paymentType: 'PUSH_TO_CUSTOMER',
      taxes: '14',
      preferredPaymentMethod: 'VALU',
      item: ['code=SKU1,qty=2,price=10.50,en="Shirt, blue",ar=قميص,discount=1'],
      cycleType: 'WEEK',
      cycleValue: '2',
      discountValue: '10',
      discountType: 'PERCENTAGE',
    });
    expect(issues).toEqual([]);
    expect(invoice).toStrictEqual({
      customer: { name: 'Amr Hassan', mobile: '+201012345678', email: 'amr@example.com' },
      amount: 20.3,
      sendingDate: 'today',
      expiryDate: '+30d',
      releaseDate: '2030-03-01',
      businessReference: 'INV-1043',
      note: 'Order 1043',
      communicationLang: 'ar-eg',
      communicationMethod: 'BOTH',
      alertMerchantUponExpiry: false,
      paymentType: 'PUSH_TO_CUSTOMER',
      taxes: '14',
      preferredPaymentMethod: 'VALU',
      cycleType: 'WEEK',
      cycleValue: 2,
      discount: { value: 10, type: 'PERCENTAGE' },
      items: [
        {
          itemCode: 'SKU1',
          purchasedQuantity: 2,
          price: 10.5,
          nameEn: 'Shirt, blue',
          nameAr: 'قميص',
          discount: { value: 1, type: 'FLAT' },
        },
      ],
    });
  });

  it('leaves out every flag that was not given, so lower layers show through', () => {
    expect(invoiceFromFlags({})).toEqual({ invoice: {}, issues: [] });
    expect(invoiceFromFlags({ item: [] }).invoice).toEqual({});
    expect(invoiceFromFlags({ customerEmail: 'a@b.co' }).invoice).toEqual({ customer: { email: 'a@b.co' } });
  });

  it('keeps each repeated --item in order and reports a malformed one at its position', () => {
    const { invoice, issues } = invoiceFromFlags({
      item: ['code=A,qty=1,price=1,en=a,ar=أ', 'code=B,size=XL', 'code="C'],
    });
    expect(invoice.items).toEqual([
      { itemCode: 'A', purchasedQuantity: 1, price: 1, nameEn: 'a', nameAr: 'أ' },
      { itemCode: 'B' },
      {},
    ]);
    expect(issues).toEqual([
      {
        path: 'items[1] (--item)',
        message: '"size" is not a key of an item. Keys: code, qty, price, en, ar, discount',
      },
      { path: 'items[2] (--item)', message: 'has an unclosed quote' },
    ]);
  });

  it('leaves a number flag that is not a number as text, so the schema names the flag', () => {
    expect(flagIssues('single', { ...completeFlags, amount: 'ten' })).toEqual([
      { path: 'amount (--amount)', message: 'must be a number' },
    ]);
    // Written as a spreadsheet shows it: told how the service takes it.
    expect(flagIssues('single', { ...completeFlags, amount: '1,250.00' })).toEqual([
      { path: 'amount (--amount)', message: 'must be a number, written without thousands separators: 1250.00' },
    ]);
    expect(flagIssues('recurring', { ...recurringFlags, cycleValue: 'monthly' })).toEqual([
      { path: 'cycleValue (--cycle-value)', message: 'must be a whole number' },
    ]);
  });
});

describe('withFlagName', () => {
  it('names the flag of each field path', () => {
    const named = (path: string) => withFlagName({ path, message: 'x' }).path;
    expect(named('customer.name')).toBe('customer.name (--customer-name)');
    expect(named('customer.email')).toBe('customer.email (--customer-email)');
    expect(named('communicationLang')).toBe('communicationLang (--lang)');
    expect(named('communicationMethod')).toBe('communicationMethod (--method)');
    expect(named('alertMerchantUponExpiry')).toBe('alertMerchantUponExpiry (--alert-on-expiry)');
    expect(named('items[3].price')).toBe('items[3].price (--item)');
    expect(named('discount.value')).toBe('discount.value (--discount-value)');
    expect(named('discount')).toBe('discount (--discount-value, --discount-type)');
    expect(named('customer')).toBe('customer (--customer-name, --customer-mobile)');
    expect(named('colour')).toBe('colour');
  });

  it('words a bad date as the forms the CLI reads, not only the wire shape', () => {
    expect(flagIssues('single', { ...completeFlags, sendingDate: 'next week', expiryDate: '31/12/2030' })).toEqual([
      {
        path: 'sendingDate (--sending-date)',
        message: 'must be a date YYYY-MM-DD (e.g. 2026-12-31), today, tomorrow, or +Nd, +Nw, +Nm (e.g. +30d)',
      },
      {
        path: 'expiryDate (--expiry-date)',
        message:
          'must be a date YYYY-MM-DD, a UTC date-time YYYY-MM-DDThh:mm:ss.sssZ, today, tomorrow, or +Nd, +Nw, +Nm (e.g. +30d)',
      },
    ]);
  });
});

describe('fields of the other kind of invoice', () => {
  it('a single-only flag given to recurring is an error naming the flag', () => {
    expect(flagIssues('recurring', { ...recurringFlags, paymentType: 'PUSH_TO_CUSTOMER' })).toEqual([
      { path: 'paymentType (--payment-type)', message: 'applies only to single invoices' },
    ]);
  });

  it('recurring-only flags given to single are errors naming each flag', () => {
    expect(flagIssues('single', { ...completeFlags, cycleType: 'MONTH', cycleValue: '1', discountValue: '5' })).toEqual(
      [
        { path: 'cycleType (--cycle-type)', message: 'applies only to recurring invoices' },
        { path: 'cycleValue (--cycle-value)', message: 'applies only to recurring invoices' },
        {
          path: 'discount (--discount-value, --discount-type)',
          message:
            'a top-level discount applies only to recurring invoices; give a single invoice discounts per item (items[n].discount)',
        },
      ],
    );
  });

  it('an item discount given to recurring is an error at that item', () => {
    expect(
      flagIssues('recurring', { ...recurringFlags, item: ['code=A,qty=1,price=100,en=a,ar=أ,discount=5'] }),
    ).toEqual([
      {
        path: 'items[0].discount (--item)',
        message: 'applies only to items of a single invoice; a recurring invoice takes one top-level discount',
      },
    ]);
  });

  it('the complete flag sets of each kind have no issues', () => {
    expect(flagIssues('single', completeFlags)).toEqual([]);
    expect(flagIssues('recurring', recurringFlags)).toEqual([]);
  });
});
