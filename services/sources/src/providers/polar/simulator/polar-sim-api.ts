/**
 * The Polar simulator's user data routes, each as the AccessLink v3 reference documents it:
 * exercises (last 30 days of uploads, after registration), sleep (last 28 days), daily activity
 * (28 days; by date; by range `from`..`to`, from ≤ 365 days old, at most 28 days apart), continuous
 * heart rate (by day, 404 "No data found for date"; by range `from`..`to`, both required and
 * inclusive), and the physical-info transaction (create 201/204, list, entry, commit).
 */
import { error, json, Reply } from './polar-sim-auth';
import { DAY, PolarAccount, recentNights, visibleExercises } from './polar-sim-data';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (s: string | null): s is string => s !== null && DATE.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (day: string) => Math.round((Date.parse(`${today()}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) / DAY);

interface Tx {
  id: number;
  userId: number;
  entries: PolarAccount['physicalPending'];
  committed: boolean;
}

export class PolarDataApi {
  private readonly transactions = new Map<number, Tx>();
  private nextTx = 179_879;

  constructor(private readonly base: () => string) {}

  route(a: PolarAccount, method: string, path: string, q: URLSearchParams): Reply | undefined {
    const now = Date.now();
    if (method === 'GET' && path === '/v3/exercises') return json(200, visibleExercises(a, now).map((e) => e.doc));
    const ex = /^\/v3\/exercises\/([^/]+)$/.exec(path);
    if (method === 'GET' && ex) {
      const e = visibleExercises(a, now).find((x) => x.doc.id === decodeURIComponent(ex[1]));
      return e ? json(200, e.doc) : error(404, 'NOT_FOUND', 'Exercise not found');
    }
    if (method === 'GET' && path === '/v3/users/sleep') return json(200, { nights: recentNights(a, now).map((n) => n.doc) });
    const sleep = /^\/v3\/users\/sleep\/([^/]+)$/.exec(path);
    if (method === 'GET' && sleep && sleep[1] !== 'available') {
      if (!isDay(sleep[1])) return error(400, 'BAD_REQUEST', 'Invalid date');
      const n = recentNights(a, now).find((x) => x.date === sleep[1]);
      return n ? json(200, n.doc) : error(404, 'NOT_FOUND', 'No data found for date');
    }
    if (method === 'GET' && (path === '/v3/users/activities' || path === '/v3/users/activities/')) return this.activities(a, q);
    const act = /^\/v3\/users\/activities\/([^/]+)$/.exec(path);
    if (method === 'GET' && act) {
      if (!isDay(act[1]) || daysAgo(act[1]) > 365) return error(400, 'BAD_REQUEST', 'Invalid or too old date. Cannot be older than 365 days.');
      const d = a.activities.find((x) => x.localDay === act[1]);
      return d ? json(200, d.doc) : { status: 204 };
    }
    if (method === 'GET' && path === '/v3/users/continuous-heart-rate') return this.heartRange(a, q);
    const chr = /^\/v3\/users\/continuous-heart-rate\/([^/]+)$/.exec(path);
    if (method === 'GET' && chr) {
      if (!isDay(chr[1])) return error(400, 'BAD_REQUEST', 'Invalid request');
      const h = a.heart.get(chr[1]);
      if (!h || h.samples.length === 0) return error(404, 'NOT_FOUND', 'No data found for date');
      return json(200, { polar_user: `https://polaraccesslink.com/v3/users/${a.userId}`, date: h.date, heart_rate_samples: h.samples });
    }
    const phys = /^\/v3\/users\/(\d+)\/physical-information-transactions(?:\/(\d+)(?:\/physical-informations\/(\d+))?)?$/.exec(path);
    if (phys) return this.physical(a, method, Number(phys[1]), phys[2] === undefined ? undefined : Number(phys[2]), phys[3] === undefined ? undefined : Number(phys[3]));
    return undefined;
  }

  /** Without `from`: the last 28 days. With it: from..to (to defaults to today), both days inclusive. */
  private activities(a: PolarAccount, q: URLSearchParams): Reply {
    const from = q.get('from');
    if (from === null) return json(200, a.activities.filter((d) => daysAgo(d.localDay) <= 28).map((d) => d.doc));
    const to = q.get('to') ?? today();
    if (!isDay(from) || !isDay(to) || daysAgo(from) > 365 || to < from) return error(400, 'BAD_REQUEST', 'Invalid or too old date. Cannot be older than 365 days.');
    if (daysAgo(from) - daysAgo(to) > 28) return error(400, 'BAD_REQUEST', 'Maximum range between from date and to date is 28 days.');
    return json(200, a.activities.filter((d) => d.localDay >= from && d.localDay <= to).map((d) => d.doc));
  }

  /**
   * "Get Continuous Heart rate samples with range": `from` and `to` required, inclusive. The
   * documents state no longest range: the example's 28 days are the most answered here (400 past
   * that). Their 200 example is one day's object: a one-day range answers exactly that; several
   * days answer those objects under `heart_rates` (the form's answer for several days is not
   * documented). No day with samples answers 404 "No data found", like the per-date form.
   */
  private heartRange(a: PolarAccount, q: URLSearchParams): Reply {
    const from = q.get('from');
    const to = q.get('to');
    if (!isDay(from) || !isDay(to) || to < from) return error(400, 'BAD_REQUEST', 'Invalid request');
    if (Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY) + 1 > 28) return error(400, 'BAD_REQUEST', 'Invalid request');
    const days = [...a.heart.values()].filter((h) => h.date >= from && h.date <= to && h.samples.length > 0).sort((x, y) => (x.date < y.date ? -1 : 1));
    if (days.length === 0) return error(404, 'NOT_FOUND', 'No data found');
    const doc = (h: (typeof days)[number]) => ({ polar_user: `https://polaraccesslink.com/v3/users/${a.userId}`, date: h.date, heart_rate_samples: h.samples });
    return from === to ? json(200, doc(days[0])) : json(200, { heart_rates: days.map(doc) });
  }

  private physical(a: PolarAccount, method: string, userId: number, txId?: number, entryId?: number): Reply {
    if (userId !== a.userId) return error(403, 'FORBIDDEN', 'Not the token\'s user');
    const base = `${this.base()}/v3/users/${userId}/physical-information-transactions`;
    if (txId === undefined) {
      if (method !== 'POST') return error(405, 'METHOD_NOT_ALLOWED', 'Method not allowed');
      if (a.physicalPending.length === 0) return { status: 204 };
      const tx: Tx = { id: this.nextTx++, userId, entries: [...a.physicalPending], committed: false };
      this.transactions.set(tx.id, tx);
      return json(201, { 'transaction-id': tx.id, 'resource-uri': `${base}/${tx.id}` });
    }
    const tx = this.transactions.get(txId);
    if (!tx || tx.userId !== userId || tx.committed) return error(404, 'NOT_FOUND', 'No transaction was found with given transaction id.');
    if (entryId === undefined && method === 'GET') {
      if (tx.entries.length === 0) return { status: 204 };
      return json(200, { 'physical-informations': tx.entries.map((p) => `${base}/${tx.id}/physical-informations/${p.id}`) });
    }
    if (entryId === undefined && method === 'PUT') {
      // "Transaction has been committed and data deleted."
      tx.committed = true;
      const done = new Set(tx.entries.map((p) => p.id));
      a.physicalPending = a.physicalPending.filter((p) => !done.has(p.id));
      return { status: 200 };
    }
    const entry = tx.entries.find((p) => p.id === entryId);
    if (method !== 'GET' || !entry) return { status: 204 };
    return json(200, { ...entry.doc, 'transaction-id': tx.id });
  }
}
