/**
 * How one process shares the partitions the log assigned it among its local clients of a stream.
 * Sticky: a partition stays with its client unless that client left or holds more than its fair
 * share, so a client coming or going moves only the partitions it must (each move is a user's
 * events changing connection, which the client sees as a hand-over).
 *
 * It runs on every client that comes or goes, so its cost follows the partitions, not the clients:
 * a stream with thousands of clients here (more clients than partitions, most of them holding
 * none) must not pay for all of them on each of the thousands of reconnects of a storm.
 */
export function splitPartitions<C>(partitions: readonly number[], clients: ReadonlySet<C>, current: ReadonlyMap<number, C>): Map<number, C> {
  const next = new Map<number, C>();
  if (clients.size === 0) return next;
  // Fair shares differ by at most one: every client holds `low`, and `extra` of them one more.
  const low = Math.floor(partitions.length / clients.size);
  let extra = partitions.length % clients.size;
  const held = new Map<C, number>();
  const loose: number[] = [];
  for (const p of partitions) {
    const owner = current.get(p);
    const has = owner === undefined ? 0 : (held.get(owner) ?? 0);
    if (owner !== undefined && clients.has(owner) && (has < low || (has === low && extra > 0))) {
      if (has === low) extra--;
      next.set(p, owner);
      held.set(owner, has + 1);
    } else {
      loose.push(p);
    }
  }
  // In join order; stops once nothing is loose, so it looks at no more clients than partitions
  // (every client it passes already holds its share, or takes one).
  let i = 0;
  for (const c of clients) {
    if (i === loose.length) break;
    let has = held.get(c) ?? 0;
    while (i < loose.length && (has < low || (has === low && extra > 0))) {
      if (has === low) extra--;
      next.set(loose[i++], c);
      has++;
    }
    held.set(c, has);
  }
  return next;
}
