import * as z from 'zod';
import type { ZodType } from 'zod';
import type { CommandContext } from '../context.js';
import { invoiceSchemas, type InvoiceKind } from '../schemas/invoice.js';
import { singleItemSchema, recurringItemSchema } from '../schemas/item.js';
import { fromMinorUnits } from '../schemas/money.js';
import { formatPath, validate } from '../schemas/validate.js';
import { formatAmount } from '../schemas/number-text.js';
import { normalizeDate, withDateForms, type DateField, type MerchantClock } from './dates.js';
import { fieldsOf } from './field-descriptions.js';
import { itemsTotal } from './invoice-input.js';
import { numberOrText } from './item-spec.js';
import { interruptible, promptContext } from './prompts.js';

type Raw = Record<string, unknown>;

/** One question about one field of the request, checked by that field's schema rule. */
interface Question {
  path: (string | number)[];
  message: string;
  rule: ZodType;
  type: 'text' | 'number' | 'select' | 'date' | 'yes-no';
  choices?: readonly string[];
  /** How the field is named in a list of fields; the path otherwise. */
  label?: string;
  /** May be left blank, which leaves the field out. */
  optional?: boolean;
  /** Asked only when this holds for the answers so far. */
  when?: (raw: Raw) => boolean;
  defaultOf?: (raw: Raw) => string | undefined;
}

/** The schema rule of the field at `path` of a request of `kind`, without its optional wrapper. */
function ruleAt(kind: InvoiceKind, path: string[]): ZodType {
  const unwrapped = (schema: ZodType): ZodType =>
    schema instanceof z.ZodOptional ? unwrapped(schema.unwrap() as ZodType) : schema;
  return path.reduce<ZodType>(
    (schema, key) => unwrapped((unwrapped(schema) as z.ZodObject).shape[key] as ZodType),
    invoiceSchemas[kind],
  );
}

/** The questions of `kind`, from the field descriptions: those a request needs, then the optional ones. */
function questionsFor(kind: InvoiceKind) {
  const asked = fieldsOf(kind).flatMap((field) => {
    const { prompt, input } = field;
    if (!prompt || input === 'items') return [];
    const question: Question = {
      path: field.path.split('.'),
      message: prompt.message,
      rule: ruleAt(kind, field.path.split('.')),
      type: input === 'choice' ? 'select' : input,
      choices: field.values,
      label: prompt.label,
      optional: prompt.group === 'optional' || undefined,
      when: prompt.when,
      defaultOf: prompt.default,
    };
    return [{ question, group: prompt.group, order: prompt.order }];
  });
  const group = (name: 'required' | 'optional') =>
    asked
      .filter((entry) => entry.group === name)
      .sort((a, b) => a.order - b.order)
      .map((entry) => entry.question);
  return { required: group('required'), optional: group('optional') };
}

/** The request paths the prompts of `kind` ask for, the items (asked by their own loop) included. */
export function promptedPaths(kind: InvoiceKind): string[] {
  const { required, optional } = questionsFor(kind);
  return [...required, ...optional].map((question) => question.path.join('.')).concat('items');
}

/**
 * True when the prompts of `kind` can repair an issue at `path` (as formatted, e.g. `items[0].price`). A field of
 * the other kind or an unknown field is never asked about, so it must be fixed where it was given.
 */
export function canBeAsked(kind: InvoiceKind, path: string): boolean {
  const item = /^items(?:\[\d+\])?(?:\.(\w+))?/.exec(path);
  if (item) {
    const shape = kind === 'single' ? singleItemSchema.shape : recurringItemSchema.shape;
    const asked = Object.keys(shape).filter((field) => kind === 'single' || field !== 'discount');
    return item[1] === undefined || asked.includes(item[1]);
  }
  const { required, optional } = questionsFor(kind);
  return [...required, ...optional].some((question) => {
    const asked = formatPath(question.path);
    return asked === path || asked.startsWith(`${path}.`);
  });
}

function valueAt(raw: Raw, path: (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], raw);
}

function withValue(raw: Raw, path: (string | number)[], value: unknown): Raw {
  const [head, ...rest] = path as [string, ...(string | number)[]];
  if (rest.length === 0) return { ...raw, [head]: value };
  const child = raw[head];
  return { ...raw, [head]: withValue(typeof child === 'object' && child !== null ? (child as Raw) : {}, rest, value) };
}

/**
 * Asks for every required field that is missing or invalid, offers items and the optional fields, and returns the
 * completed raw request. Every answer is checked by the same schema rule that checks files and flags.
 */
export async function askForInvoice(
  kind: InvoiceKind,
  start: Raw,
  context: CommandContext,
  clock: Date | MerchantClock,
  onProgress: (raw: Raw) => void = () => {},
): Promise<Raw> {
  const prompts = await import('./inquirer.js');
  const streams = promptContext(context);
  const { required, optional } = questionsFor(kind);
  let raw = { ...start };

  const ask = async (question: Question): Promise<void> => {
    const parse = (typed: string): unknown =>
      question.type === 'number'
        ? numberOrText(typed)
        : question.type === 'date'
          ? normalizeDate(question.path[0] as DateField, typed, clock, raw.sendingDate)
          : typed;
    const current = valueAt(raw, question.path);
    // An invalid value (from a flag or file) is not offered as the default: Enter would only submit it again.
    const checked = current !== undefined && typeof current !== 'object' ? validate(question.rule, current) : undefined;
    const usable = checked?.success === true;
    const fallback = usable ? String(current) : question.defaultOf?.(raw);
    // A value given but refused is asked for again after a line that says why: else the flag would seem ignored.
    const refused = checked && !checked.success ? checked.issues[0]?.message : undefined;
    if (refused) context.stderr.write(`${formatPath(question.path)}: the value given ${refused}.\n`);
    let answer: unknown;
    if (question.type === 'select') {
      answer = await interruptible(() =>
        prompts.select(
          {
            message: question.message,
            choices: (question.choices ?? []).map((value) => ({ value })),
            default: fallback,
          },
          streams,
        ),
      );
    } else if (question.type === 'yes-no') {
      answer = await interruptible(() =>
        prompts.confirm({ message: question.message, default: current === true }, streams),
      );
    } else {
      const typed = await interruptible(() =>
        prompts.input(
          {
            message: question.message,
            default: fallback,
            validate: (text) => {
              if (question.optional && text.trim() === '') return true;
              const result = validate(question.rule, parse(text));
              if (result.success) return true;
              const issue = { path: String(question.path.at(-1)), message: result.issues[0]?.message ?? 'is invalid' };
              return withDateForms(issue).message;
            },
          },
          streams,
        ),
      );
      answer = question.optional && typed.trim() === '' ? undefined : parse(typed);
    }
    raw = withValue(raw, question.path, answer);
    onProgress(raw);
  };

  const needsAnswer = (question: Question) =>
    (question.when?.(raw) ?? true) && !validate(question.rule, valueAt(raw, question.path)).success;

  // Items come first: without an amount, the amount is their total and is not asked for.
  if (raw.items === undefined || (Array.isArray(raw.items) && !itemsAreValid(kind, raw.items))) {
    const amountGiven = validate(invoiceSchemas[kind].shape.amount, raw.amount).success;
    const before = raw;
    // Each item completed, and the one being typed, are part of the answers kept if the run stops here.
    const reportItems = (items: Raw[]) => onProgress({ ...before, items });
    raw = {
      ...raw,
      items: await askForItems(kind, Array.isArray(raw.items) ? raw.items : [], context, !amountGiven, reportItems),
    };
    const total = itemsTotal(raw.items);
    if (raw.amount === undefined && total !== undefined) raw = { ...raw, amount: fromMinorUnits(total) };
    onProgress(raw);
  }
  for (const question of required) {
    if (needsAnswer(question)) await ask(question);
  }
  const offered = optional.filter((question) => valueAt(raw, question.path) === undefined);
  const invalidOptional = optional.filter(
    (question) => valueAt(raw, question.path) !== undefined && needsAnswer(question),
  );
  for (const question of invalidOptional) await ask(question);
  if (
    offered.length > 0 &&
    (await interruptible(() =>
      prompts.confirm(
        {
          message: `Set optional fields (${describeFields(offered)})?`,
          default: false,
        },
        streams,
      ),
    ))
  ) {
    for (const question of offered) await ask(question);
  }
  // An optional answer can make another field required (EMAIL needs the customer's e-mail).
  for (const question of required) {
    if (needsAnswer(question)) await ask(question);
  }
  return raw;
}

function itemsAreValid(kind: InvoiceKind, items: unknown[]): boolean {
  const schema = kind === 'single' ? singleItemSchema : recurringItemSchema;
  return items.every((item) => validate(schema, item).success);
}

/** The item loop: keeps valid items, repairs invalid ones, adds new ones, and shows the running total. */
async function askForItems(
  kind: InvoiceKind,
  existing: unknown[],
  context: CommandContext,
  offerFirstItem: boolean,
  onItems: (items: Raw[]) => void = () => {},
): Promise<Raw[] | undefined> {
  const prompts = await import('./inquirer.js');
  const streams = promptContext(context);
  const schema = kind === 'single' ? singleItemSchema : recurringItemSchema;
  const shape = schema.shape;
  const items: Raw[] = [];
  const field = async (
    message: string,
    rule: ZodType,
    current: unknown,
    asNumber: boolean,
    optional = false,
    // Rules that involve the rest of the item (a discount may not exceed its total) are checked on the whole item.
    withItem?: (value: unknown) => string | undefined,
  ) => {
    const parse = (text: string) => (asNumber ? numberOrText(text) : text);
    const typed = await interruptible(() =>
      prompts.input(
        {
          message,
          default: current === undefined ? undefined : String(current),
          validate: (text) => {
            if (optional && text.trim() === '') return true;
            const result = validate(rule, parse(text));
            if (!result.success) return result.issues[0]?.message ?? 'is invalid';
            return withItem?.(parse(text)) ?? true;
          },
        },
        streams,
      ),
    );
    return optional && typed.trim() === '' ? undefined : parse(typed);
  };
  const askItem = async (start: Raw): Promise<Raw> => {
    // The item grows field by field, and each field typed is reported with the items before it.
    const item: Raw = {};
    const typed = (key: string, value: unknown) => {
      item[key] = value;
      onItems([...items, item]);
    };
    typed('itemCode', await field('Item code', shape.itemCode, start.itemCode, false));
    typed('purchasedQuantity', await field('Quantity', shape.purchasedQuantity, start.purchasedQuantity, true));
    typed('price', await field('Price', shape.price, start.price, true));
    typed('nameEn', await field('Name in English', shape.nameEn, start.nameEn, false));
    typed('nameAr', await field('Name in Arabic', shape.nameAr, start.nameAr, false));
    if (kind === 'single') {
      const discount = await field(
        'Flat discount on this item (blank for none)',
        singleItemSchema.shape.discount.unwrap().shape.value,
        (start.discount as Raw | undefined)?.value,
        true,
        true,
        (value) => {
          const result = validate(singleItemSchema, { ...item, discount: { value, type: 'FLAT' } });
          return result.success ? undefined : result.issues.find((issue) => issue.path.startsWith('discount'))?.message;
        },
      );
      if (discount !== undefined) typed('discount', { value: discount, type: 'FLAT' });
    }
    return item;
  };

  for (const item of existing) {
    const start = typeof item === 'object' && item !== null ? (item as Raw) : {};
    items.push(validate(schema, start).success ? start : await askItem(start));
  }
  const question = () => (items.length === 0 ? 'Add a line item?' : 'Add another item?');
  while (
    await interruptible(() =>
      prompts.confirm({ message: question(), default: items.length === 0 && offerFirstItem }, streams),
    )
  ) {
    items.push(await askItem({}));
    onItems(items);
    const total = itemsTotal(items);
    if (total !== undefined) {
      context.stderr.write(
        `  ${items.length} item${items.length === 1 ? '' : 's'}, running total ${formatAmount(fromMinorUnits(total))}\n`,
      );
    }
  }
  return items.length > 0 ? items : undefined;
}

function describeFields(questions: Question[]): string {
  const names = questions.map((question) => question.label ?? formatPath(question.path));
  return names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
}
