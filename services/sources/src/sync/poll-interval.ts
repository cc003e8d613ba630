/**
 * How often a connection is polled. Providers with notifications are polled less often (the poll
 * only catches what they missed). And never more often than the provider's budget allows for
 * every connected user: each window's polls (users × resources) are planned within 30 % of the
 * window, so with WHOOP's 10,000 a day, 4 resources and 1,000 users a poll comes about every 32
 * hours rather than the budget running dry by midday and the rest waiting for tomorrow; the rest
 * stays for live fetches and history.
 */
import type { Provider } from '../providers/provider-registry';
import type { Clock } from '@wellstream/clock';
import type { ConnectionRepository } from '../connections/connection.repository';

export interface PollEveryDeps {
  connections: ConnectionRepository;
  clock: Clock;
  pollIntervalMs: number;
}

/**
 * The share of each window polls are planned within: a round may cost more requests than the
 * provider has resources (pages, transactions), and history keeps the rest of its 60 % ceiling.
 */
export const POLL_PLAN_SHARE = 0.3;
const COUNT_TTL_MS = 60_000;
const counts = new Map<string, { at: number; n: number }>();

export function pollEveryMs(base: number, provider: Pick<Provider, 'http' | 'adapter'>, connections: number): number {
  let every = base;
  for (const w of provider.http.windows) {
    const polls = Math.max(1, Math.floor(w.limit * POLL_PLAN_SHARE));
    every = Math.max(every, Math.ceil((connections * provider.adapter.resources.length * w.windowMs) / polls));
  }
  return every;
}

export async function pollEvery(deps: PollEveryDeps, provider: Provider): Promise<number> {
  const base = (provider.defaults.notifications ? 4 : 1) * deps.pollIntervalMs;
  const now = deps.clock.now().getTime();
  let cached = counts.get(provider.type);
  if (!cached || now - cached.at > COUNT_TTL_MS) {
    cached = { at: now, n: await deps.connections.countOf(provider.type) };
    counts.set(provider.type, cached);
  }
  return pollEveryMs(base, provider, cached.n);
}
