/**
 * `wellstream completion bash|zsh|fish`: a completion script written from the CLI's own command
 * tree (commander's), so every command and option the CLI has is in it and none it lost.
 * The three scripts share one plan: walk the words typed so far, following each one that names a
 * subcommand of the path so far (option values never do: the word after an option that takes one
 * is skipped), then offer the path's subcommands, or its options and the global ones when the word
 * being completed starts with `-`. Profile names (after --profile, `profiles use`, `profiles
 * remove`) come from `wellstream profiles list --names` when asked, so they are the saved ones.
 */
import type { Command } from 'commander';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export interface CommandEntry {
  /** Words from the program to the command ('' for the program itself), e.g. `notifications target`. */
  path: string;
  /** Its subcommands, or the values its first argument takes when they are a fixed list (`completion <shell>`). */
  subcommands: string[];
  /** Long options (the command's own; the program's for the root). */
  options: string[];
}

/** Every command of the tree, depth first, with its subcommands and long options. */
export function commandTable(program: Command): { entries: CommandEntry[]; valued: string[] } {
  const entries: CommandEntry[] = [];
  const valued = new Set<string>();
  const visit = (cmd: Command, path: string) => {
    const options = cmd.options.filter((o) => o.long && !o.hidden).map((o) => o.long as string);
    for (const o of cmd.options) if (o.long && (o.required || o.optional)) valued.add(o.long);
    const choices = cmd.registeredArguments[0]?.argChoices ?? [];
    entries.push({ path, subcommands: [...cmd.commands.map((c) => c.name()), ...choices], options: [...options, '--help'] });
    for (const sub of cmd.commands) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(program, '');
  return { entries, valued: [...valued].sort() };
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The shared lookup functions in sh syntax (bash and zsh read them alike). */
function shFunctions(table: ReturnType<typeof commandTable>, globals: string[]): string {
  const cases = (pick: (e: CommandEntry) => string[]) => table.entries.map((e) => `    ${quote(e.path)}) echo ${quote(pick(e).join(' '))} ;;`).join('\n');
  return [
    '_wellstream_subcommands() {',
    '  case "$1" in',
    cases((e) => e.subcommands),
    '  esac',
    '}',
    '_wellstream_options() {',
    '  case "$1" in',
    cases((e) => (e.path === '' ? e.options : [...e.options, ...globals])),
    '  esac',
    '}',
    `_wellstream_valued=${quote(` ${table.valued.join(' ')} `)}`,
  ].join('\n');
}

export function completionScript(shell: Shell, program: Command): string {
  const table = commandTable(program);
  const globals = table.entries[0].options.filter((o) => o !== '--help' && o !== '--version');
  if (shell === 'fish') return fishScript(table, globals);
  const walk = (first: number, word: string, current: string) =>
    [
      '  local cmdpath="" w i skip=0',
      `  for ((i = ${first}; i < ${current}; i++)); do`,
      `    w=${word}`,
      '    if ((skip)); then skip=0; continue; fi',
      '    if [[ $w == -* ]]; then [[ $w != *=* && $_wellstream_valued == *" $w "* ]] && skip=1; continue; fi',
      '    if [[ " $(_wellstream_subcommands "$cmdpath") " == *" $w "* ]]; then cmdpath=${cmdpath:+$cmdpath }$w; fi',
      '  done',
    ].join('\n');
  if (shell === 'bash') {
    return [
      '# wellstream completion for bash. Load it with: eval "$(wellstream completion bash)"',
      '# or save it as ~/.local/share/bash-completion/completions/wellstream',
      shFunctions(table, globals),
      '_wellstream() {',
      '  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} words',
      walk(1, '${COMP_WORDS[i]}', 'COMP_CWORD'),
      '  if [[ $prev == --profile || ($cur != -* && ($cmdpath == "profiles use" || $cmdpath == "profiles remove")) ]]; then words=$(wellstream profiles list --names 2>/dev/null)',
      '  elif [[ $cur == -* ]]; then words=$(_wellstream_options "$cmdpath"); else words=$(_wellstream_subcommands "$cmdpath"); fi',
      '  COMPREPLY=($(compgen -W "$words" -- "$cur"))',
      '}',
      'complete -o default -F _wellstream wellstream',
      '',
    ].join('\n');
  }
  return [
    '#compdef wellstream',
    '# wellstream completion for zsh. Load it with: eval "$(wellstream completion zsh)" (after compinit)',
    '# or save it as _wellstream in a folder of your $fpath',
    shFunctions(table, globals),
    '_wellstream() {',
    '  local cur=${words[CURRENT]} prev=${words[CURRENT-1]}',
    walk(2, '${words[i]}', 'CURRENT'),
    '  if [[ $prev == --profile || ($cur != -* && ($cmdpath == "profiles use" || $cmdpath == "profiles remove")) ]]; then compadd -- ${(f)"$(wellstream profiles list --names 2>/dev/null)"}; return; fi',
    '  if [[ $cur == -* ]]; then compadd -- ${=$(_wellstream_options "$cmdpath")}; else compadd -- ${=$(_wellstream_subcommands "$cmdpath")}; fi',
    '}',
    // Autoloaded from $fpath this file is the body of _wellstream, so it completes on that first
    // call; eval'd, it registers the function.
    'if [[ ${funcstack[1]} == _wellstream ]]; then _wellstream "$@"; else compdef _wellstream wellstream; fi',
    '',
  ].join('\n');
}

function fishScript(table: ReturnType<typeof commandTable>, globals: string[]): string {
  const cases = (pick: (e: CommandEntry) => string[]) => table.entries.map((e) => `        case ${quote(e.path)}\n            echo ${quote(pick(e).join(' '))}`).join('\n');
  return [
    '# wellstream completion for fish. Load it with: wellstream completion fish | source',
    '# or save it as ~/.config/fish/completions/wellstream.fish',
    'function __wellstream_subcommands',
    '    switch "$argv[1]"',
    cases((e) => e.subcommands),
    '    end',
    'end',
    'function __wellstream_options',
    '    switch "$argv[1]"',
    cases((e) => (e.path === '' ? e.options : [...e.options, ...globals])),
    '    end',
    'end',
    'function __wellstream_complete',
    '    set -l typed (commandline -opc)',
    '    set -l cur (commandline -ct)',
    "    set -l cmdpath ''",
    '    set -l skip 0',
    `    set -l valued ${table.valued.map(quote).join(' ')}`,
    '    for w in $typed[2..-1]',
    '        if test $skip = 1',
    '            set skip 0',
    '            continue',
    '        end',
    "        if string match -q -- '-*' $w",
    "            if not string match -q -- '*=*' $w; and contains -- $w $valued",
    '                set skip 1',
    '            end',
    '            continue',
    '        end',
    '        if contains -- $w (string split -n " " -- (__wellstream_subcommands "$cmdpath"))',
    '            set cmdpath (string trim -- "$cmdpath $w")',
    '        end',
    '    end',
    '    if test "$typed[-1]" = --profile; or begin; not string match -q -- \'-*\' $cur; and contains -- "$cmdpath" \'profiles use\' \'profiles remove\'; end',
    '        wellstream profiles list --names 2>/dev/null',
    "    else if string match -q -- '-*' $cur",
    '        string split -n " " -- (__wellstream_options "$cmdpath")',
    '    else',
    '        string split -n " " -- (__wellstream_subcommands "$cmdpath")',
    '    end',
    'end',
    "complete -c wellstream -f -a '(__wellstream_complete)'",
    '',
  ].join('\n');
}
