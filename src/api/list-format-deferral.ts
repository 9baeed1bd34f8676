// Part of src/api/got.ts: on its evaluation, Intl.ListFormat becomes a stand-in that defers the real formatter (and
// ICU's locale data) to its first use; restoreListFormat puts the real constructor back.

type ListFormatArgs = ConstructorParameters<typeof Intl.ListFormat>;

/** Intl, whose ListFormat the standard makes writable (TypeScript's declaration says read-only). */
const intl = Intl as { ListFormat: typeof Intl.ListFormat };
const RealListFormat = intl.ListFormat;

/**
 * The stand-in. Should got fail to load, got.ts never restores the real constructor, and this stays: it formats as the
 * real one does, and answers `supportedLocalesOf`. (A microtask to restore it would run too early where modules load
 * one by one, as under vitest.)
 */
class DeferredListFormat {
  static supportedLocalesOf(...args: Parameters<typeof Intl.ListFormat.supportedLocalesOf>): string[] {
    return RealListFormat.supportedLocalesOf(...args);
  }

  readonly #args: ListFormatArgs;
  #real: Intl.ListFormat | undefined;

  constructor(...args: ListFormatArgs) {
    this.#args = args;
  }

  #formatter(): Intl.ListFormat {
    return (this.#real ??= new RealListFormat(...this.#args));
  }

  format(list: Iterable<string>): string {
    return this.#formatter().format(list);
  }

  formatToParts(list: Iterable<string>): ReturnType<Intl.ListFormat['formatToParts']> {
    return this.#formatter().formatToParts(list);
  }

  resolvedOptions(): Intl.ResolvedListFormatOptions {
    return this.#formatter().resolvedOptions();
  }
}

intl.ListFormat = DeferredListFormat as unknown as typeof Intl.ListFormat;

export function restoreListFormat(): void {
  intl.ListFormat = RealListFormat;
}
