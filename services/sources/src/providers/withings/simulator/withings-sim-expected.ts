/**
 * What the simulator's seeded data should become in Wellstream, counted from the data itself
 * (not by running the adapter): one measurement per real measure group (category 1; objectives
 * are not measures), one daily summary per activity starting at the local midnight of its date,
 * one workout and one sleep per item at its start, one intraday record per UTC day with samples.
 */
import { SimAccount } from './withings-sim-data';

const DAY = 86_400;

/** The zone's UTC offset (seconds) at an instant, read from Intl's `longOffset` name ("GMT+02:00"). */
function offsetAt(zone: string, epochS: number): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(new Date(epochS * 1000)).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60) : 0;
}

/** The instant the local day `date` starts in `zone`. */
export function localDayStart(date: string, zone: string): number {
  const utc = Date.parse(`${date}T00:00:00Z`) / 1000;
  let t = utc - offsetAt(zone, utc);
  t = utc - offsetAt(zone, t);
  return t;
}

export function countExpected(account: SimAccount, from: Date, to: Date): Record<string, number> {
  const lo = from.getTime() / 1000;
  const hi = to.getTime() / 1000;
  const inside = (t: number) => t >= lo && t < hi;
  const days = new Set<number>();
  for (const t of account.intraday.keys()) if (inside(Math.floor(t / DAY) * DAY)) days.add(Math.floor(t / DAY));
  return {
    measurement: account.measures.filter((g) => g.category === 1 && inside(g.date)).length,
    summary: account.activities.filter((a) => inside(localDayStart(a.date, a.timezone))).length,
    workout: account.workouts.filter((w) => inside(w.startdate)).length,
    sleep: account.sleeps.filter((s) => inside(s.startdate)).length,
    intraday: days.size,
  };
}
