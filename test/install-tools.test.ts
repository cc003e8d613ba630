/**
 * The install step against a fresh machine. A tool that is merely present here (installed by hand,
 * or by an earlier run) hides a missing install step until someone starts from a clean machine, as
 * podman's pause binary once did. So these tests ask the installer what it would install on a
 * machine that has nothing (`--plan --assume-missing`), check every tool the scripts call against
 * its list, and read apt's own metadata for what the packages recommend.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const TOOLS = path.join(ROOT, 'deploy/tools');
const ENSURE = path.join(TOOLS, 'ensure-tools.sh');

interface Tool { tool: string; group: string; source: string }
const rows = (file: string) => fs.readFileSync(path.join(TOOLS, file), 'utf8').split('\n')
  .filter((l) => l.trim() && !l.startsWith('#')).map((l) => l.split('\t'));
const tools: Tool[] = rows('tools.tsv').map(([tool, group, source]) => ({ tool, group, source }));
const declined = new Set(rows('declined-recommends.tsv').map(([pkg]) => pkg));
const groups = [...new Set(tools.map((t) => t.group))];
const aptPackages = [...new Set(tools.filter((t) => t.source.startsWith('apt:')).map((t) => t.source.slice(4)))];

const plan = (...args: string[]) => {
  const r = spawnSync('bash', [ENSURE, '--plan', ...args], { encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr, lines: r.stdout.trim().split('\n').filter(Boolean).map((l) => l.split('\t')) };
};

describe('deploy/tools: what a fresh machine gets installed', () => {
  it('plans an install for every tool of every group on a machine that has none of them', () => {
    const { status, lines } = plan('--assume-missing', ...groups);
    expect(status).toBe(0);
    expect(lines.map(([t, s]) => `${t} ${s}`).sort()).toEqual(tools.map((t) => `${t.tool} ${t.source}`).sort());
  });

  it('installs podman\'s pause binary with the container tools', () => {
    const { lines } = plan('--assume-missing', 'containers');
    expect(lines).toContainEqual(['catatonit', 'apt:catatonit']);
    expect(lines.map(([t]) => t)).toEqual(expect.arrayContaining(['podman', 'runc', 'debootstrap', 'podman-compose']));
  });

  it('refuses an unknown group and an unknown option, naming them', () => {
    const group = plan('no-such-group');
    expect(group.status).toBe(1);
    expect(group.stderr).toContain("unknown group 'no-such-group'");
    const option = spawnSync('bash', [ENSURE, '--nope', 'base'], { encoding: 'utf8' });
    expect(option.status).toBe(2);
    expect(option.stderr).toContain('unknown option --nope');
  });

  it('lists every executable the scripts and tests look for or run', () => {
    // Executables are found by the forms this repository uses to require or start one.
    const forms = [/command -v ([\w.-]+)/g, /need_cmd ([\w.-]+)/g, /(?:spawnSync|spawn|execFileSync)\('([\w.-]+)'/g];
    const onlyWhenNotRoot = new Set(['sudo']); // asked for only when the scripts do not run as root
    const files = execFileSync('git', ['ls-files', '*.sh', '*.js', '*.mjs', '*.ts'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n').filter((f) => f && !f.includes('node_modules') && !f.startsWith('packages/cli/'));
    const listed = new Set(tools.map((t) => t.tool));
    const missing = new Map<string, string>();
    for (const file of files) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const form of forms) {
        for (const m of text.matchAll(form)) {
          const exe = m[1];
          if (!listed.has(exe) && !onlyWhenNotRoot.has(exe) && !missing.has(exe)) missing.set(exe, file);
        }
      }
    }
    expect(Object.fromEntries(missing)).toEqual({});
  });

  it('takes or declines, with a reason, everything its apt packages recommend (apt\'s own metadata)', () => {
    const r = spawnSync('apt-cache', ['depends', ...aptPackages], { encoding: 'utf8' });
    if (r.error || r.status !== 0) throw new Error(`apt-cache depends failed: ${r.error?.message ?? r.stderr}`);
    const taken = new Set(aptPackages);
    const uncovered: string[] = [];
    let current = '';
    let alternatives: string[] = [];
    for (const line of r.stdout.split('\n')) {
      if (/^\S/.test(line)) { current = line.trim(); alternatives = []; continue; }
      const m = /^\s*(\|?)Recommends: <?([^\s>]+)>?/.exec(line);
      if (!m) continue;
      alternatives.push(m[2]);
      if (m[1] === '|') continue; // "a | b | c": the group ends at the line without the bar
      if (!alternatives.some((p) => taken.has(p) || declined.has(p))) uncovered.push(`${current} recommends ${alternatives.join(' | ')}`);
      alternatives = [];
    }
    expect(uncovered).toEqual([]);
  });
});
