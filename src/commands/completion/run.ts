import type { CommandUnknownOpts as Command, Option } from '@commander-js/extra-typings';
import type { CommandContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { invoiceFields } from '../../input/field-descriptions.js';
import { jsonSchemaNames } from '../../schemas/json-schema.js';

/** The shells a completion script can be printed for. */
export const completionShells = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof completionShells)[number];

/** Values offered after a flag: the environments, and those the invoice field descriptions list. */
const flagValues: Record<string, readonly string[]> = {
  '--env': ['sandbox', 'staging', 'production'],
  ...Object.fromEntries(
    invoiceFields.flatMap((field) => {
      const values = field.values ?? field.suggestions;
      return values ? [[field.flag, values]] : [];
    }),
  ),
};

/** Flags whose value is a path, completed with file names. */
const fileFlags = new Set(['--file', '--config', '--save', '--report', '--journal', '--state']);

/** Values of positional arguments, by command path. */
const argumentValues: Record<string, readonly string[]> = {
  completion: completionShells,
  schema: jsonSchemaNames,
  template: ['single', 'recurring'],
};

/** One flag as completion offers it. */
interface Flag {
  long: string;
  short?: string;
  description: string;
  /** True when the flag is followed by a value (`--env NAME`). */
  takesValue: boolean;
  values?: readonly string[];
  file: boolean;
}

interface CommandNode {
  /** The words after `einvoice`, e.g. `sandbox pay`; empty for the root. */
  path: string;
  subcommands: Array<{ name: string; description: string }>;
  /** The command's own flags, hidden ones left out. */
  ownFlags: Flag[];
  /** Every flag commander accepts here: the command's own and its ancestors', `--help` once. */
  flags: Flag[];
}

const helpFlag: Flag = { long: '--help', short: '-h', description: 'show help', takesValue: false, file: false };

function toFlag(option: Option): Flag | undefined {
  if (!option.long || option.hidden) return undefined;
  return {
    long: option.long,
    short: option.short,
    description: option.description,
    takesValue: option.required || option.optional,
    // An option with choices (--format, --date-format) offers them; the invoice fields' values are in flagValues.
    values: flagValues[option.long] ?? option.argChoices,
    file: fileFlags.has(option.long),
  };
}

/** Walks the command tree: each command's path, subcommands and flags, hidden flags left out. */
export function commandTree(program: Command): CommandNode[] {
  const nodes: CommandNode[] = [];
  const visit = (command: Command, path: string, inherited: Flag[]) => {
    const ownFlags = command.options.map(toFlag).filter((flag): flag is Flag => flag !== undefined);
    const flags = [...inherited, ...ownFlags].filter(
      (flag, index, all) => all.findIndex((other) => other.long === flag.long) === index,
    );
    nodes.push({
      path,
      subcommands: command.commands
        .filter((child) => child.name() !== 'help')
        .map((child) => ({ name: child.name(), description: child.description() })),
      ownFlags,
      flags: [...flags, helpFlag],
    });
    for (const child of command.commands) visit(child, path ? `${path} ${child.name()}` : child.name(), flags);
  };
  visit(program, '', []);
  return nodes;
}

/** The completion script of `shell` for the whole command tree. */
export function completionScript(shell: Shell, program: Command): string {
  const nodes = commandTree(program);
  return shell === 'fish' ? fishScript(nodes) : bashScript(nodes, shell);
}

/** Single-quotes `text` for bash and zsh. */
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const words = (list: readonly string[]) => quote(list.join(' '));

/** Every command path is written under `einvoice`, so no key is empty. */
const key = (path: string) => quote(path ? `einvoice ${path}` : 'einvoice');

function bashScript(nodes: CommandNode[], shell: Shell): string {
  const table = (rows: Array<[string, string]>) => rows.map(([name, value]) => `    [${name}]=${value}`).join('\n');
  const allFlags = nodes.flatMap((node) => node.flags);
  const names = (flag: Flag) => [flag.long, ...(flag.short ? [flag.short] : [])];
  const namesOf = (pick: (flag: Flag) => boolean) => [...new Set(allFlags.filter(pick).flatMap(names))];
  const valuesByName = new Map<string, readonly string[]>();
  for (const flag of allFlags) if (flag.values) for (const name of names(flag)) valuesByName.set(name, flag.values);
  // zsh runs the bash function through bashcompinit. The script is also zsh's `_einvoice` when saved in $fpath:
  // autoloaded, its body runs on the first Tab, so it then completes that Tab itself.
  const { header, name, footer } =
    shell === 'zsh'
      ? {
          header: `#compdef einvoice
# einvoice completion for zsh. Install: save it as _einvoice in a folder of $fpath, or source it after compinit.
autoload -U +X bashcompinit && bashcompinit`,
          name: '_einvoice_words',
          footer: `
if [[ "\${funcstack[1]}" == "_einvoice" ]]; then
  _bash_complete -o default -F _einvoice_words
fi`,
        }
      : {
          header: `# einvoice completion for bash. Install: save it as einvoice in bash-completion's completions folder, or source it.`,
          name: '_einvoice',
          footer: '',
        };
  return `${header}
${name}() {
  local cur prev word i command_path positionals=0
  local -A subcommands=(
${table(nodes.map((node) => [key(node.path), words(node.subcommands.map((child) => child.name))]))}
  )
  local -A flags=(
${table(nodes.map((node) => [key(node.path), words(node.flags.map((flag) => flag.long))]))}
  )
  local -A values=(
${table([...valuesByName].map(([name, list]) => [quote(name), words(list)]))}
  )
  local -A arguments=(
${table(Object.entries(argumentValues).map(([path, list]) => [key(path), words(list)]))}
  )
  local value_flags=${quote(` ${namesOf((flag) => flag.takesValue).join(' ')} `)}
  local file_flags=${quote(` ${namesOf((flag) => flag.file).join(' ')} `)}
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev=""
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  # Bash splits --flag=value at "=": the flag is then one or two words back.
  if [[ "$cur" == "=" ]]; then
    cur=""
  elif [[ "$prev" == "=" ]] && (( COMP_CWORD > 1 )); then
    prev="\${COMP_WORDS[COMP_CWORD-2]}"
  fi
  command_path="einvoice"
  for (( i = 1; i < COMP_CWORD; i++ )); do
    word="\${COMP_WORDS[i]}"
    if [[ "$value_flags" == *" $word "* ]]; then
      # Skip the flag's value, and the "=" of --flag=value.
      [[ "\${COMP_WORDS[i+1]}" == "=" ]] && i=$((i + 1))
      i=$((i + 1))
    elif [[ "$word" == -* || "$word" == "=" ]]; then
      :
    elif [[ " \${subcommands[$command_path]} " == *" $word "* ]]; then
      command_path="$command_path $word"
    else
      positionals=$((positionals + 1))
    fi
  done
  if [[ -n "\${values[$prev]+set}" ]]; then
    COMPREPLY=( $(compgen -W "\${values[$prev]}" -- "$cur") )
  elif [[ "$file_flags" == *" $prev "* ]]; then
    COMPREPLY=( $(compgen -f -- "$cur") )
  elif [[ "$value_flags" == *" $prev "* ]]; then
    COMPREPLY=()
  elif [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "\${flags[$command_path]}" -- "$cur") )
  elif [[ -n "\${subcommands[$command_path]}" ]]; then
    COMPREPLY=( $(compgen -W "\${subcommands[$command_path]}" -- "$cur") )
  elif (( positionals == 0 )) && [[ -n "\${arguments[$command_path]+set}" ]]; then
    COMPREPLY=( $(compgen -W "\${arguments[$command_path]}" -- "$cur") )
  fi
  return 0
}
complete -o default -F ${name} einvoice${footer}
`;
}

/** Single-quotes `text` for fish, where only `\\` and `'` are special inside single quotes. */
const fishQuote = (text: string) => `'${text.replace(/[\\']/g, '\\$&')}'`;

function fishScript(nodes: CommandNode[]): string {
  const lines = [
    '# einvoice completion for fish. Install: einvoice completion fish > ~/.config/fish/completions/einvoice.fish',
  ];
  // True while the command line names this command and none of its subcommands yet.
  const condition = (path: string, children: string[]) => {
    const parts = path.split(' ').filter(Boolean);
    const seen = parts.map((part) => `__fish_seen_subcommand_from ${part}`);
    const notDeeper = children.length > 0 ? [`not __fish_seen_subcommand_from ${children.join(' ')}`] : [];
    const all = [...seen, ...notDeeper];
    return all.length === 0 ? '' : ` -n ${fishQuote(all.join('; and '))}`;
  };
  for (const node of nodes) {
    const children = node.subcommands.map((child) => child.name);
    for (const child of node.subcommands) {
      lines.push(
        `complete -c einvoice -f${condition(node.path, children)} -a ${child.name} -d ${fishQuote(child.description)}`,
      );
    }
    const argumentList = argumentValues[node.path];
    if (argumentList)
      lines.push(`complete -c einvoice -f${condition(node.path, [])} -a ${fishQuote(argumentList.join(' '))}`);
    // A flag of the root is offered everywhere; a command's own flags where the command is named.
    const flags = node.path === '' ? [...node.ownFlags, helpFlag] : node.ownFlags;
    for (const flag of flags) {
      const short = flag.short ? ` -s ${flag.short.slice(1)}` : '';
      const value = flag.values
        ? ` -x -a ${fishQuote(flag.values.join(' '))}`
        : flag.file
          ? ' -r -F'
          : flag.takesValue
            ? ' -x'
            : '';
      const where = node.path === '' ? '' : condition(node.path, []);
      lines.push(
        `complete -c einvoice${where} -l ${flag.long.slice(2)}${short}${value} -d ${fishQuote(flag.description)}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** `einvoice completion bash|zsh|fish`: prints the completion script on stdout. */
export function printCompletion(shell: string, program: Command, context: CommandContext): void {
  if (!(completionShells as readonly string[]).includes(shell)) {
    throw new UsageError(`No completion for "${shell}".`, { hint: `Choose one of ${completionShells.join(', ')}.` });
  }
  context.stdout.write(completionScript(shell as Shell, program));
}
