/**
 * Fault injection and call bookkeeping behind `failNext` and `stats` of the simulator interface.
 * Which answer a fault becomes (the provider's 429 headers, its garbage body) is the provider's
 * simulator's business; this only counts.
 */

export type FaultStatus = number | 'garbage';

/** The next `count` data calls fail with `status` (failNext: a new script replaces the old one). */
export class ScriptedFaults {
  private script: { count: number; status: FaultStatus; retryAfterS?: number } = { count: 0, status: 500 };

  set(count: number, status: FaultStatus, retryAfterS?: number): void {
    this.script = { count, status, retryAfterS };
  }

  /** The fault this call must answer with, if one is still scripted (and uses it up). */
  take(): { status: FaultStatus; retryAfterS?: number } | undefined {
    if (this.script.count <= 0) return undefined;
    this.script.count--;
    return { status: this.script.status, retryAfterS: this.script.retryAfterS };
  }
}

export interface TokenCounts {
  tokenExchanges: number;
  refreshes: number;
  revokes: number;
}

export type SimStats = TokenCounts & { dataRequests: number };

/** Data calls per user, keyed as the provider identifies users. */
export class CallCounter<K> {
  private readonly calls = new Map<K, number>();

  add(id: K): void {
    this.calls.set(id, (this.calls.get(id) ?? 0) + 1);
  }

  get(id: K): number {
    return this.calls.get(id) ?? 0;
  }
}

/** The stats of the interface, summed over `ids` (one user, or every account). */
export function sumStats<K>(ids: Iterable<K>, tokenCounts: (id: K) => TokenCounts | undefined, dataCalls: CallCounter<K>): SimStats {
  const sum = { tokenExchanges: 0, refreshes: 0, revokes: 0, dataRequests: 0 };
  for (const id of ids) {
    const c = tokenCounts(id);
    sum.tokenExchanges += c?.tokenExchanges ?? 0;
    sum.refreshes += c?.refreshes ?? 0;
    sum.revokes += c?.revokes ?? 0;
    sum.dataRequests += dataCalls.get(id);
  }
  return sum;
}
