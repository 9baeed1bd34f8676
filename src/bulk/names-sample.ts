// A few of the names a run's records are sent with, for a dry run to show as they will reach customers: names with
// letters beyond ASCII first (Arabic, which a sheet read in the wrong encoding turns into other letters), then any.

/** How many names a dry run shows. */
const shown = 3;

/** The first few distinct names of a run's records, those beyond ASCII first. */
export class NamesSample {
  readonly #beyondAscii: string[] = [];
  readonly #ascii: string[] = [];

  /** Takes the name of one more record to send. */
  add(name: string | undefined): void {
    if (name === undefined || name.trim() === '') return;
    // eslint-disable-next-line no-control-regex -- ASCII is what this tells apart
    const list = /^[\u0000-\u007f]*$/.test(name) ? this.#ascii : this.#beyondAscii;
    if (list.length < shown && !list.includes(name)) list.push(name);
  }

  /** The sample, at most `shown` names. */
  names(): string[] {
    return [...this.#beyondAscii, ...this.#ascii].slice(0, shown);
  }
}
