/**
 * The simulator's data services, answering the documented requests with documented shapes:
 * Measure - Getmeas (meastypes, category, startdate/enddate or lastupdate, `more` 1/0 + `offset`),
 * Measure v2 - Getactivity / Getworkouts and Sleep v2 - Getsummary (startdateymd/enddateymd or
 * lastupdate, `more` true/false + `offset`), Measure v2 - Getintradayactivity (startdate/enddate,
 * first 24 h only, `series` keyed by timestamp). Pages are small so pagination is exercised.
 */
import { SimAccount } from './withings-sim-data';
import { Envelope } from './withings-sim-oauth';

export const PAGE_SIZE = 10;
const DAY = 86_400;

const invalid = (detail: string): Envelope => ({ status: 503, body: {}, error: `Invalid Params: ${detail}` });
const intParam = (q: URLSearchParams, name: string): number | undefined => {
  const v = q.get(name);
  return v !== null && /^\d+$/.test(v) ? Number(v) : undefined;
};
const YMD = /^\d{4}-\d{2}-\d{2}$/;

function page<T>(items: T[], q: URLSearchParams): { items: T[]; more: boolean; offset: number } {
  const offset = intParam(q, 'offset') ?? 0;
  const slice = items.slice(offset, offset + PAGE_SIZE);
  const more = offset + PAGE_SIZE < items.length;
  return { items: slice, more, offset: more ? offset + PAGE_SIZE : 0 };
}

/** startdateymd/enddateymd (inclusive) or lastupdate; they may not be mixed. */
function dateFilter(q: URLSearchParams): ((date: string, modified: number) => boolean) | Envelope {
  const s = q.get('startdateymd');
  const e = q.get('enddateymd');
  const lastupdate = intParam(q, 'lastupdate');
  if ((s || e) && lastupdate !== undefined) return invalid('startdateymd and lastupdate cannot be used together');
  if (lastupdate !== undefined) return (_d, modified) => modified > lastupdate;
  if (!s || !e || !YMD.test(s) || !YMD.test(e)) return invalid('startdateymd/enddateymd');
  return (date) => date >= s && date <= e;
}

function getmeas(a: SimAccount, q: URLSearchParams, nowS: number): Envelope {
  const types = (q.get('meastypes') ?? q.get('meastype') ?? '').split(',').filter(Boolean).map(Number);
  const category = intParam(q, 'category');
  const start = intParam(q, 'startdate');
  const end = intParam(q, 'enddate');
  const lastupdate = intParam(q, 'lastupdate');
  const groups = a.measures
    .filter((g) => (category === undefined || g.category === category) && (start === undefined || g.date >= start) && (end === undefined || g.date <= end) && (lastupdate === undefined || g.modified > lastupdate))
    .map((g) => ({ ...g, measures: types.length ? g.measures.filter((m) => types.includes(m.type)) : g.measures }))
    .filter((g) => g.measures.length > 0)
    .sort((x, y) => y.date - x.date);
  const p = page(groups, q);
  return { status: 0, body: { updatetime: nowS, timezone: a.timezone, measuregrps: p.items, more: p.more ? 1 : 0, offset: p.offset } };
}

function listed<T extends { date: string; modified: number }>(items: T[], key: string, q: URLSearchParams): Envelope {
  const filter = dateFilter(q);
  if (typeof filter !== 'function') return filter;
  const p = page(items.filter((i) => filter(i.date, i.modified)), q);
  return { status: 0, body: { [key]: p.items, more: p.more, offset: p.offset } };
}

function getintradayactivity(a: SimAccount, q: URLSearchParams, nowS: number): Envelope {
  const start = intParam(q, 'startdate') ?? nowS - DAY;
  // "If your input startdate and enddate are separated by more than 24h, only the first 24h after startdate will be returned."
  const end = Math.min(intParam(q, 'enddate') ?? nowS, start + DAY);
  const fields = (q.get('data_fields') ?? 'steps').split(',');
  const series: Record<string, Record<string, unknown>> = {};
  for (const [t, point] of [...a.intraday.entries()].sort(([x], [y]) => x - y)) {
    if (t < start || t > end) continue;
    const out: Record<string, unknown> = { deviceid: point.deviceid, model: point.model, model_id: point.model_id };
    for (const f of fields) if ((point as unknown as Record<string, unknown>)[f] !== undefined) out[f] = (point as unknown as Record<string, unknown>)[f];
    series[String(t)] = out;
  }
  return { status: 0, body: { series } };
}

/** One data call: path + action → documented answer (2554 "Not implemented" for an unknown action). */
export function answerData(a: SimAccount, path: string, q: URLSearchParams, nowS: number): Envelope {
  const action = q.get('action');
  if (path === '/measure' && action === 'getmeas') return getmeas(a, q, nowS);
  if (path === '/v2/measure' && action === 'getactivity') return listed(a.activities, 'activities', q);
  if (path === '/v2/measure' && action === 'getworkouts') return listed(a.workouts, 'series', q);
  if (path === '/v2/measure' && action === 'getintradayactivity') return getintradayactivity(a, q, nowS);
  if (path === '/v2/sleep' && action === 'getsummary') return listed(a.sleeps, 'series', q);
  return { status: 2554, body: {}, error: 'Not implemented' };
}
