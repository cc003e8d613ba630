/**
 * `merged=true`: one user's records of several sources made into one view by the organization's
 * source priority. Pure functions over stored records; the rules (docs/merging.md):
 *
 * - An *overlap* is two intervals sharing time ([start, end) ranges; a point in time — start =
 *   end — overlaps what lies within POINT_TOLERANCE_MS of it). Only overlapping candidates are
 *   decided by priority; candidates that do not overlap are all kept (combined).
 * - Candidates are ranked by the source's rank for the resource and metric (SourceRanking); a tie
 *   (same source) goes to a device's value over an unknown origin over a manual entry, then the
 *   longer interval, then the one processed last (created_at), then the smaller record id.
 * - summary: one record per local day; sleep: one per night (the local date 12 h before the
 *   sleep's local start, so a sleep after midnight belongs to the evening before). Each metric is
 *   chosen on its own: additive metrics (steps, distances, energies, durations, counts) add up the
 *   best-ranked candidates that do not overlap; level metrics (scores, resting heart rate) take the
 *   best-ranked one. Every metric carries `provenance`, the records its value came from.
 * - workout, measurement, nutrition: records of different sources that overlap (a measurement:
 *   only when they share a metric type) are one event told twice; the best-ranked is kept, with
 *   `duplicates` naming the others. A source's own records never displace each other here.
 * - intraday: per metric type, a series keeps its samples except where a better-ranked source's
 *   series of that type already covers the time; a series left without samples is dropped.
 */
import { createHash } from 'node:crypto';
import type { ResourceType } from '@wellstream/catalog';
import type { RecordDoc, RecordPayload } from '../record';
import { RECORD_VERSION } from '../record';
import type { SourceRanking } from '../../priority/source-priority';

/** How near two points in time (a weighing, a meal) count as the same event. */
export const POINT_TOLERANCE_MS = 5 * 60_000;

/** Metrics whose values over separate intervals add up; every other metric is a level. */
export const ADDITIVE_METRICS = new Set([
  'steps', 'distance', 'elevation', 'floors_climbed', 'energy_burned', 'active_energy_burned', 'basal_energy_burned',
  'heart_rate_zone_very_low', 'heart_rate_zone_low', 'heart_rate_zone_medium', 'heart_rate_zone_high',
  'awake_count', 'awake_duration', 'restless_count', 'in_bed_duration', 'sleep_duration',
  'light_sleep_duration', 'deep_sleep_duration', 'rem_sleep_duration',
]);

const ORIGIN_RANK: Record<string, number> = { device: 0, unknown: 1, manual: 2 };

interface Metric {
  type: string;
  unit: string;
  value: number;
  origin?: string;
  [k: string]: unknown;
}

export interface Provenance {
  source: string;
  record_id: string;
  log_id: string;
  start_time: string;
  end_time: string;
}

export interface MergedMetric {
  type: string;
  unit: string;
  value: number;
  origin: string;
  provenance: (Provenance & { value: number })[];
}

/** A day's summary or a night's sleep built from several sources. */
export interface MergedRecord {
  id: string;
  type: 'summary' | 'sleep';
  version: string;
  merged: true;
  local_date: string;
  start_time: string;
  end_time: string;
  utc_offset: number;
  user: RecordPayload['user'];
  sources: string[];
  category?: string;
  metrics: MergedMetric[];
  stages?: unknown[];
  provenance: Provenance[];
}

/** A stored record kept by the merge (workout, measurement, nutrition, intraday), with what it won over. */
export type KeptRecord = Record<string, unknown> & { id: string; start_time: string; merged: true; duplicates: (Provenance & { metric?: string })[] };

/** A payload's type-specific fields (category, stages), read without narrowing the union. */
const field = (doc: RecordDoc, name: string): unknown => (doc.payload as unknown as Record<string, unknown>)[name];

interface Candidate {
  doc: RecordDoc;
  start: number;
  end: number;
}

const ms = (iso: string) => Date.parse(iso);
const candidate = (doc: RecordDoc): Candidate => ({ doc, start: ms(doc.payload.start_time), end: ms(doc.payload.end_time) });
const provenanceOf = (doc: RecordDoc): Provenance => ({
  source: doc.source_type,
  record_id: doc._id,
  log_id: doc.log_id,
  start_time: doc.payload.start_time,
  end_time: doc.payload.end_time,
});

export function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  if (a.start === a.end || b.start === b.end) return a.start <= b.end + POINT_TOLERANCE_MS && b.start <= a.end + POINT_TOLERANCE_MS;
  return a.start < b.end && b.start < a.end;
}

/** Best first: source rank, then the tie rule (origin, longer interval, processed last, smaller id). */
function byRank(rank: (c: Candidate) => number, origin: (c: Candidate) => string | undefined) {
  return (a: Candidate, b: Candidate): number =>
    rank(a) - rank(b) ||
    (ORIGIN_RANK[origin(a) ?? 'unknown'] ?? 1) - (ORIGIN_RANK[origin(b) ?? 'unknown'] ?? 1) ||
    b.end - b.start - (a.end - a.start) ||
    (a.doc.payload.created_at < b.doc.payload.created_at ? 1 : a.doc.payload.created_at > b.doc.payload.created_at ? -1 : 0) ||
    (a.doc._id < b.doc._id ? -1 : a.doc._id > b.doc._id ? 1 : 0);
}

const metricsOf = (doc: RecordDoc): Metric[] => (Array.isArray(doc.payload.metrics) ? (doc.payload.metrics as Metric[]) : []);
const bestOrigin = (doc: RecordDoc): string => metricsOf(doc).reduce((best, m) => ((ORIGIN_RANK[m.origin ?? 'unknown'] ?? 1) < (ORIGIN_RANK[best] ?? 1) ? (m.origin ?? 'unknown') : best), 'manual');

/** Walks candidates best first and keeps each that overlaps none kept so far. */
function nonOverlapping(sorted: Candidate[]): Candidate[] {
  const kept: Candidate[] = [];
  for (const c of sorted) if (!kept.some((k) => overlaps(k, c))) kept.push(c);
  return kept;
}

/** The local date a sleep belongs to: 12 h before its local start. */
export function nightOf(doc: RecordDoc): string {
  const offset = typeof doc.payload.utc_offset === 'number' ? doc.payload.utc_offset : 0;
  return new Date(ms(doc.payload.start_time) + offset * 1000 - 12 * 3600_000).toISOString().slice(0, 10);
}

function mergedId(userId: string, type: string, key: string): string {
  const h = createHash('sha256').update(`merged\u0000${userId}\u0000${type}\u0000${key}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Summaries by local day or sleeps by night: one merged record per group, in [from, to]. */
export function mergeDays(type: 'summary' | 'sleep', docs: RecordDoc[], ranking: SourceRanking, from: string, to: string): MergedRecord[] {
  const groups = new Map<string, RecordDoc[]>();
  for (const doc of docs) {
    const key = type === 'sleep' ? nightOf(doc) : doc.local_date;
    if (key < from || key > to) continue;
    const group = groups.get(key);
    if (group) group.push(doc);
    else groups.set(key, [doc]);
  }
  return [...groups.entries()].map(([key, group]) => mergeGroup(type, key, group, ranking)).sort((a, b) => (a.start_time < b.start_time ? -1 : a.start_time > b.start_time ? 1 : 0));
}

function mergeGroup(type: 'summary' | 'sleep', key: string, docs: RecordDoc[], ranking: SourceRanking): MergedRecord {
  const cands = docs.map(candidate);
  // The record level: which records make the day's or night's shape (its offset, a sleep's stages).
  const records = nonOverlapping([...cands].sort(byRank((c) => ranking.rank(type, undefined, c.doc.source_type), (c) => bestOrigin(c.doc))));
  const used = new Map<string, RecordDoc>(records.map((c) => [c.doc._id, c.doc]));
  const metricTypes = [...new Set(docs.flatMap((d) => metricsOf(d).map((m) => m.type)))];
  const metrics: MergedMetric[] = [];
  for (const metricType of metricTypes) {
    const withMetric = cands
      .map((c) => ({ c, metric: metricsOf(c.doc).find((m) => m.type === metricType) }))
      .filter((x): x is { c: Candidate; metric: Metric } => x.metric !== undefined && typeof x.metric.value === 'number');
    const metricOf = new Map(withMetric.map((x) => [x.c, x.metric]));
    const sorted = withMetric.map((x) => x.c).sort(byRank((c) => ranking.rank(type, metricType, c.doc.source_type), (c) => metricOf.get(c)?.origin));
    const top = metricOf.get(sorted[0])!;
    // Values in another unit are not added to the best one's (no conversion is guessed).
    const sameUnit = sorted.filter((c) => metricOf.get(c)!.unit === top.unit);
    const chosen = ADDITIVE_METRICS.has(metricType) ? nonOverlapping(sameUnit) : [sameUnit[0]];
    for (const c of chosen) used.set(c.doc._id, c.doc);
    metrics.push({
      type: metricType,
      unit: top.unit,
      value: chosen.reduce((sum, c) => sum + metricOf.get(c)!.value, 0),
      origin: top.origin ?? 'unknown',
      provenance: chosen.map((c) => ({ ...provenanceOf(c.doc), value: metricOf.get(c)!.value })),
    });
  }
  const contributors = [...used.values()].sort((a, b) => (a.payload.start_time < b.payload.start_time ? -1 : 1));
  const lead = records[0].doc;
  const merged: MergedRecord = {
    id: mergedId(lead.user_id, type, key),
    type,
    version: RECORD_VERSION,
    merged: true,
    local_date: key,
    start_time: contributors.reduce((min, d) => (d.payload.start_time < min ? d.payload.start_time : min), contributors[0].payload.start_time),
    end_time: contributors.reduce((max, d) => (d.payload.end_time > max ? d.payload.end_time : max), contributors[0].payload.end_time),
    utc_offset: typeof lead.payload.utc_offset === 'number' ? lead.payload.utc_offset : 0,
    user: lead.payload.user,
    sources: [...new Set(contributors.map((d) => d.source_type))],
    metrics,
    provenance: contributors.map(provenanceOf),
  };
  if (type === 'summary') merged.category = typeof field(lead, 'category') === 'string' ? (field(lead, 'category') as string) : 'daily';
  if (type === 'sleep') {
    merged.stages = records
      .flatMap((c) => (Array.isArray(field(c.doc, 'stages')) ? (field(c.doc, 'stages') as { start_time: string }[]) : []))
      .sort((a, b) => (a.start_time < b.start_time ? -1 : a.start_time > b.start_time ? 1 : 0));
  }
  return merged;
}

/** Workouts, measurements, nutrition: of records of different sources that overlap, the best-ranked stays. */
export function mergeEvents(type: ResourceType, docs: RecordDoc[], ranking: SourceRanking): KeptRecord[] {
  const firstMetric = (d: RecordDoc) => (type === 'measurement' ? metricsOf(d)[0]?.type : undefined);
  const sorted = docs.map(candidate).sort(byRank((c) => ranking.rank(type, firstMetric(c.doc), c.doc.source_type), (c) => bestOrigin(c.doc)));
  const clash = (a: Candidate, b: Candidate) => {
    if (a.doc.source_type === b.doc.source_type || !overlaps(a, b)) return false;
    if (type !== 'measurement') return true;
    const types = new Set(metricsOf(a.doc).map((m) => m.type));
    return metricsOf(b.doc).some((m) => types.has(m.type));
  };
  const kept: { c: Candidate; duplicates: Provenance[] }[] = [];
  for (const c of sorted) {
    const winner = kept.find((k) => clash(k.c, c));
    if (winner) winner.duplicates.push(provenanceOf(c.doc));
    else kept.push({ c, duplicates: [] });
  }
  return kept.map((k) => ({ ...k.c.doc.payload, merged: true as const, duplicates: k.duplicates })).sort(byStart);
}

interface Series {
  type: string;
  granularity?: string;
  samples: { time: string; value: number }[];
  [k: string]: unknown;
}

const GRANULARITY_MS: Record<string, number> = { PT1M: 60_000, PT5M: 300_000, PT15M: 900_000, PT1H: 3_600_000 };

/** Intraday: per metric type, samples where a better-ranked source already covers the time are dropped. */
export function mergeSeries(docs: RecordDoc[], ranking: SourceRanking): KeptRecord[] {
  const items = docs.flatMap((doc) =>
    (metricsOf(doc) as unknown as Series[]).map((series, index) => ({ doc, series, index, c: candidate(doc) })),
  );
  items.sort((a, b) => byRank((c) => ranking.rank('intraday', (c === a.c ? a : b).series.type, c.doc.source_type), (c) => (c === a.c ? a : b).series.origin as string | undefined)(a.c, b.c));
  // What each source's kept samples cover, per metric type: [start, end) spans and their record.
  const covered = new Map<string, { doc: RecordDoc; start: number; end: number }[]>();
  const keptSeries = new Map<string, { index: number; series: Series }[]>();
  const duplicates = new Map<string, Map<string, Provenance & { metric: string }>>();
  for (const { doc, series, index } of items) {
    const spans = covered.get(series.type) ?? [];
    covered.set(series.type, spans);
    const step = GRANULARITY_MS[series.granularity ?? ''] ?? 60_000;
    const others = spans.filter((s) => s.doc.source_type !== doc.source_type);
    const samples = (series.samples ?? []).filter((s) => {
      const t = ms(s.time);
      const winner = others.find((o) => t >= o.start && t < o.end);
      if (!winner) return true;
      const list = duplicates.get(winner.doc._id) ?? new Map();
      duplicates.set(winner.doc._id, list);
      list.set(`${doc._id}\u0000${series.type}`, { ...provenanceOf(doc), metric: series.type });
      return false;
    });
    if (!samples.length) continue;
    // Runs of consecutive samples become spans; a gap longer than a step is not covered.
    let runStart = ms(samples[0].time);
    let last = runStart;
    for (const s of samples.slice(1)) {
      const t = ms(s.time);
      if (t - last > step) {
        spans.push({ doc, start: runStart, end: last + step });
        runStart = t;
      }
      last = t;
    }
    spans.push({ doc, start: runStart, end: last + step });
    const list = keptSeries.get(doc._id) ?? [];
    list.push({ index, series: { ...series, samples } });
    keptSeries.set(doc._id, list);
  }
  return docs
    .filter((d) => keptSeries.has(d._id))
    .map((d) => ({
      ...d.payload,
      metrics: keptSeries
        .get(d._id)!
        .sort((a, b) => a.index - b.index)
        .map((k) => k.series) as unknown,
      merged: true as const,
      duplicates: [...(duplicates.get(d._id)?.values() ?? [])],
    }))
    .sort(byStart);
}

const byStart = (a: { start_time: string; id: string }, b: { start_time: string; id: string }) =>
  a.start_time < b.start_time ? -1 : a.start_time > b.start_time ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
