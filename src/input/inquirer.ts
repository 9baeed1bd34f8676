// The prompts einvoice asks with. Commands import them from here rather than from @inquirer/prompts itself, so the
// bundle keeps these four and leaves out the others: the editor prompt alone brings 0.5 MB of character encodings.
export { confirm, input, password, select } from '@inquirer/prompts';
