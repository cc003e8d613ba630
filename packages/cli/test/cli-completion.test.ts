/**
 * `wellstream completion bash|zsh|fish`: each script names every command of the CLI's own tree
 * (walked here from commander, so a command added later is checked too), the bash script is valid
 * bash, and bash's completion machinery offers the right words at each level, option values skipped.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { runCli } from '../src';
import { commandTree } from '../src/program';

const io = { stdout: () => undefined, stderr: () => undefined, env: {} };

async function script(shell: string): Promise<{ code: number; text: string; stderr: string }> {
  let text = '';
  let stderr = '';
  const code = await runCli(['completion', shell], { stdout: (s) => (text += s), stderr: (s) => (stderr += s), env: {} });
  return { code, text, stderr };
}

function paths(cmd: Command, prefix = ''): { path: string; cmd: Command }[] {
  return cmd.commands.flatMap((c) => {
    const p = prefix ? `${prefix} ${c.name()}` : c.name();
    return [{ path: p, cmd: c }, ...paths(c, p)];
  });
}

it('each shell gets a script naming every command and its options', async () => {
  const all = paths(commandTree(io));
  expect(all.map((p) => p.path)).toEqual(expect.arrayContaining(['profiles use', 'rules create', 'notifications target set', 'completion', 'listen']));
  for (const shell of ['bash', 'zsh', 'fish']) {
    const { code, text } = await script(shell);
    expect(code).toBe(0);
    for (const { path: p, cmd } of all) {
      expect({ shell, path: p, named: text.includes(shell === 'fish' ? `case '${p}'\n` : `'${p}')`) }).toEqual({ shell, path: p, named: true });
      for (const o of cmd.options) expect({ shell, path: p, option: o.long, present: text.includes(o.long!) }).toEqual({ shell, path: p, option: o.long, present: true });
    }
  }
  expect((await script('powershell')).code).toBe(2);
});

describe('the bash script', () => {
  let file: string;
  beforeAll(async () => {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-completion-')), 'wellstream.bash');
    fs.writeFileSync(file, (await script('bash')).text);
  });

  it('is valid bash', () => {
    expect(() => execFileSync('bash', ['-n', file])).not.toThrow();
  });

  /** What bash offers after `wellstream <typed>` with the cursor on the last word (`prelude` runs first). */
  const completeAfter = (prelude: string, typed: string[]) => {
    const words = ['wellstream', ...typed].map((w) => `'${w}'`).join(' ');
    const out = execFileSync('bash', ['-c', `${prelude} source '${file}'; COMP_WORDS=(${words}); COMP_CWORD=${typed.length}; _wellstream; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8' });
    return out.split('\n').filter(Boolean);
  };
  const complete = (...typed: string[]) => completeAfter('', typed);

  it('offers the subcommands of each level, and options after a dash', () => {
    const tree = commandTree(io);
    expect(complete('')).toEqual(tree.commands.map((c) => c.name()));
    expect(complete('pro')).toEqual(['profiles']);
    expect(complete('users', '')).toEqual(['list', 'get', 'create', 'update', 'delete']);
    expect(complete('notifications', 'target', '')).toEqual(['get', 'set', 'delete']);
    expect(complete('rules', '')).toEqual(['list', 'get', 'create', 'update', 'delete']);
    expect(complete('profiles', 'u')).toEqual(['use']);
    expect(complete('completion', '')).toEqual(['bash', 'zsh', 'fish']);
    // An option's value is never taken for a command: `--profile users` names a profile.
    expect(complete('--profile', 'users', '')).toEqual(tree.commands.map((c) => c.name()));
    expect(complete('--json', 'streams', 'l')).toEqual(['list']);
    expect(complete('users', 'list', '--')).toEqual(expect.arrayContaining(['--limit', '--offset', '--help', '--profile', '--json', '--base-url']));
    expect(complete('rules', 'create', '--w')).toEqual(['--window', '--wide']);
    expect(complete('--')).toEqual(expect.arrayContaining(['--profile', '--version', '--help']));
  });

  it('offers the saved profile names after --profile and `profiles use|remove`, from the built executable', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-completion-profiles-'));
    const login = { base_url: 'http://127.0.0.1:1/v2', token: 'tok' };
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ current_profile: 'prod', profiles: { prod: login, staging: login, 'ci-eu': login } }));
    const main = path.resolve(__dirname, '../dist/main.js');
    const prelude = `export WELLSTREAM_CONFIG_DIR='${dir}'; wellstream() { '${process.execPath}' '${main}' "$@"; };`;
    expect(completeAfter(prelude, ['--profile', ''])).toEqual(['ci-eu', 'prod', 'staging']);
    expect(completeAfter(prelude, ['users', 'list', '--profile', 's'])).toEqual(['staging']);
    expect(completeAfter(prelude, ['profiles', 'use', ''])).toEqual(['ci-eu', 'prod', 'staging']);
    expect(completeAfter(prelude, ['profiles', 'remove', 'p'])).toEqual(['prod']);
    expect(completeAfter(prelude, ['profiles', 'use', '--'])).toEqual(expect.arrayContaining(['--help', '--json']));
  });
});
