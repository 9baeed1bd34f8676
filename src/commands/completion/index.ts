import type { CommandContext } from '../../context.js';
import type { Root } from '../root.js';

/** `einvoice completion <shell>`. */
function declareCompletion(root: Root) {
  return root
    .command('completion')
    .description('print a shell completion script for bash, zsh or fish')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      `
Examples:
  $ einvoice completion bash > ~/.local/share/bash-completion/completions/einvoice
  $ einvoice completion zsh > ~/.zfunc/_einvoice    (~/.zshrc: fpath=(~/.zfunc $fpath) before compinit)
  $ einvoice completion fish > ~/.config/fish/completions/einvoice.fish`,
    );
}

/** Adds `einvoice completion`; its implementation, which reads the whole command tree, is imported only when it runs. */
export function addCompletionCommand(root: Root, context: CommandContext): void {
  declareCompletion(root).action(async (shell) => {
    const { printCompletion } = await import('./run.js');
    printCompletion(shell, root, context);
  });
}
