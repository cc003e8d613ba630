/**
 * How one process shares the partitions the log assigned it among its local clients of a stream.
 * Sticky: a partition stays with its client unless that client left or holds more than its fair
 * share, so a client coming or going moves only the partitions it must (each move is a user's
 * events changing connection, which the client sees as a hand-over).
 */
export function splitPartitions<C>(partitions: readonly number[], clients: readonly C[], current: ReadonlyMap<number, C>): Map<number, C> {
  const next = new Map<number, C>();
  if (clients.length === 0) return next;
  // Fair shares differ by at most one: the first `extra` clients (in join order) may hold one more.
  const base = Math.floor(partitions.length / clients.length);
  const extra = partitions.length % clients.length;
  const cap = new Map(clients.map((c, i) => [c, base + (i < extra ? 1 : 0)]));
  const held = new Map<C, number>(clients.map((c) => [c, 0]));
  const loose: number[] = [];
  for (const p of partitions) {
    const owner = current.get(p);
    if (owner !== undefined && cap.has(owner) && held.get(owner)! < cap.get(owner)!) {
      next.set(p, owner);
      held.set(owner, held.get(owner)! + 1);
    } else {
      loose.push(p);
    }
  }
  for (const p of loose) {
    const owner = clients.find((c) => held.get(c)! < cap.get(c)!)!;
    next.set(p, owner);
    held.set(owner, held.get(owner)! + 1);
  }
  return next;
}
