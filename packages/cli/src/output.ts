/** Printing results: JSON for scripts (--json), aligned plain-text tables for people. */
import type { CliIo } from './cli-io';

export function printJson(io: CliIo, value: unknown): void {
  io.stdout(JSON.stringify(value, null, 2) + '\n');
}

/**
 * A table of `rows` with the given columns; cells are flattened to one line and cut at 60
 * characters, except URLs (a cut link is no link) and everything with `wide`.
 */
export function printTable(io: CliIo, rows: Record<string, unknown>[], columns: string[], wide = false): void {
  const cell = (v: unknown) => {
    const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return wide || /^https?:\/\/\S+$/.test(s) || s.length <= 60 ? s : s.slice(0, 57) + '...';
  };
  const cells = rows.map((r) => columns.map((c) => cell(pick(r, c))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd() + '\n';
  io.stdout(line(columns.map((c) => c.toUpperCase())));
  for (const row of cells) io.stdout(line(row));
  if (rows.length === 0) io.stdout('(none)\n');
}

/** `a.b` reads a nested field. */
function pick(row: Record<string, unknown>, column: string): unknown {
  return column.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), row);
}

/** One line describing an event, for tail and listen. */
export function describeEvent(event: { type: string; id?: string; data: unknown }): string {
  const d = (event.data ?? {}) as Record<string, any>;
  if (event.type === 'data') {
    const metrics = Array.isArray(d.metrics) ? d.metrics.map((m: any) => `${m.type}=${m.value}${m.unit ? ' ' + m.unit : ''}`).join(', ') : '';
    return `${d.type ?? 'record'} ${d.source?.type ?? ''} user=${d.user?.uid ?? d.user?.id ?? '?'} ${d.start_time ?? ''}${d.deleted_at ? ' (deleted)' : ''}${metrics ? ' ' + metrics : ''}`;
  }
  if (event.type === 'connection') return `${d.action} ${d.source?.type ?? ''} user=${d.user?.uid ?? '?'}`;
  if (event.type === 'rule') return `rule ${d.rule?.id ?? ''} user=${d.user?.uid ?? '?'}`;
  return `members=${d.members?.count ?? '-'} ts=${d.ts ?? ''}`;
}
