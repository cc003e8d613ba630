/**
 * Renders the configuration reference (docs/configuration.md) from the deployables' joi schemas:
 * each key's `.description()` is its meaning, its default (or whether it is required) comes from the
 * schema, and "read by" from which deployables' schemas hold it. A variable whose meaning or default
 * differs between deployables gets one row per variant.
 */
import type Joi from 'joi';

export interface DeployableSchema {
  /** e.g. `gateway`, `users` */
  name: string;
  schema: Joi.ObjectSchema;
}

/** A variable read outside a joi schema (a script, the process runner). */
export interface ExtraVariable {
  name: string;
  default: string;
  readBy: string;
  meaning: string;
}

export interface ReferenceSection {
  title: string;
  intro?: string;
  rows: { name: string; default: string; readBy: string; meaning: string }[];
}

interface KeyDescription {
  type?: string;
  flags?: { description?: string; default?: unknown; presence?: string };
  whens?: { is?: { allow?: unknown[] }; then?: { flags?: { presence?: string } } }[];
}

function defaultOf(key: KeyDescription): string {
  const value = key.flags?.default;
  if (value !== undefined) return value === '' ? 'empty' : `\`${String(value)}\``;
  if (key.flags?.presence === 'required') return 'required';
  if ((key.whens ?? []).some((w) => w.then?.flags?.presence === 'required')) return 'required in distributed mode';
  return 'unset';
}

/** Every key of the schemas, with its meaning; throws when a key has no `.description()`. */
export function describeSchemas(deployables: DeployableSchema[]): Map<string, { deployable: string; default: string; meaning: string }[]> {
  const byKey = new Map<string, { deployable: string; default: string; meaning: string }[]>();
  for (const { name, schema } of deployables) {
    const keys = (schema.describe() as { keys?: Record<string, KeyDescription> }).keys ?? {};
    for (const [key, d] of Object.entries(keys)) {
      const meaning = d.flags?.description;
      if (!meaning) throw new Error(`${name}: ${key} has no .description() in its config schema`);
      byKey.set(key, [...(byKey.get(key) ?? []), { deployable: name, default: defaultOf(d), meaning }]);
    }
  }
  return byKey;
}

/**
 * Sections: the variants every deployable in `groups` reads go to that group's section (first
 * matching group wins); the rest to the section of the first deployable that reads them.
 */
export function referenceSections(
  deployables: DeployableSchema[],
  groups: { title: string; intro?: string; members: string[] }[],
  titles: Record<string, string>,
): ReferenceSection[] {
  const sections = new Map<string, ReferenceSection>();
  const section = (title: string, intro?: string) => {
    if (!sections.has(title)) sections.set(title, { title, intro, rows: [] });
    return sections.get(title)!;
  };
  for (const g of groups) section(g.title, g.intro);
  for (const d of deployables) section(titles[d.name] ?? d.name);
  for (const [key, entries] of describeSchemas(deployables)) {
    const variants = new Map<string, { default: string; meaning: string; readers: string[] }>();
    for (const e of entries) {
      const id = `${e.default}\u0000${e.meaning}`;
      const v = variants.get(id) ?? { default: e.default, meaning: e.meaning, readers: [] };
      v.readers.push(e.deployable);
      variants.set(id, v);
    }
    for (const v of variants.values()) {
      const group = groups.find((g) => g.members.every((m) => v.readers.includes(m)));
      const title = group?.title ?? titles[v.readers[0]] ?? v.readers[0];
      section(title).rows.push({ name: key, default: v.default, readBy: v.readers.join(', '), meaning: v.meaning });
    }
  }
  return [...sections.values()].filter((s) => s.rows.length > 0);
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderSections(sections: ReferenceSection[]): string {
  return sections
    .map((s) => [
      `## ${s.title}`,
      '',
      ...(s.intro ? [s.intro, ''] : []),
      '| variable | default | read by | meaning |',
      '|---|---|---|---|',
      ...s.rows.map((r) => `| \`${r.name}\` | ${cell(r.default)} | ${cell(r.readBy)} | ${cell(r.meaning)} |`),
      '',
    ].join('\n'))
    .join('\n');
}
