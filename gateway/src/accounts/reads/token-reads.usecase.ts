/**
 * The operator's reads of developer tokens: a customer's tokens and one of them, each with its
 * requests in the current and the previous hour against its hourly limit. A token is shown by its
 * id (the sha256 it is stored under: not a secret, it cannot be turned back into the token) and
 * its display prefix, never in full: the token itself is not stored.
 */
import { notFound } from '@wellstream/errors';
import type { DeveloperToken } from '../account';
import type { AccountRepository } from '../account.repository';
import { customerNotFound } from './customer-reads.usecase';
import { findOptionsOf, PageMeta, PageQuery } from './paging.schema';

/** Allowed requests of each token (by hash) in the hour holding now and the one before, in order. */
export type TokenUsageReader = (tokenHashes: string[]) => Promise<{ windowStart: number; current: number; previous: number }[]>;

const HOUR_MS = 3_600_000;

export interface TokenView {
  id: string;
  /** null for tokens issued before prefixes were kept. */
  prefix: string | null;
  customer_id: string;
  rate_limit_per_hour: number;
  created_at: string;
  revoked_at: string | null;
  usage: {
    current_hour: { start: string; requests: number; remaining: number };
    previous_hour: { start: string; requests: number };
  };
}

async function viewsOf(tokens: DeveloperToken[], readUsage: TokenUsageReader): Promise<TokenView[]> {
  // One read for the whole page (one MGET on Redis).
  const usage = await readUsage(tokens.map((t) => t._id));
  return tokens.map((t, i) => {
    const u = usage[i];
    return {
      id: t._id,
      prefix: t.prefix ?? null,
      customer_id: t.customer_id,
      rate_limit_per_hour: t.rate_limit_per_hour,
      created_at: t.created_at,
      revoked_at: t.revoked_at,
      usage: {
        current_hour: { start: new Date(u.windowStart).toISOString(), requests: u.current, remaining: Math.max(0, t.rate_limit_per_hour - u.current) },
        previous_hour: { start: new Date(u.windowStart - HOUR_MS).toISOString(), requests: u.previous },
      },
    };
  });
}

/** A customer's tokens, revoked ones included (with `revoked_at`), oldest first by default. */
export async function listTokens(deps: { repo: AccountRepository; readUsage: TokenUsageReader }, customerId: string, page: PageQuery): Promise<{ data: TokenView[]; meta: PageMeta }> {
  if (!(await deps.repo.findCustomer(customerId))) throw customerNotFound(customerId);
  const ofCustomer = { customer_id: customerId };
  const [tokens, total] = await Promise.all([deps.repo.tokens.find(ofCustomer, findOptionsOf(page)), deps.repo.tokens.count(ofCustomer)]);
  return { data: await viewsOf(tokens, deps.readUsage), meta: { ...page, total } };
}

export async function getToken(deps: { repo: AccountRepository; readUsage: TokenUsageReader }, customerId: string, tokenId: string): Promise<TokenView> {
  if (!(await deps.repo.findCustomer(customerId))) throw customerNotFound(customerId);
  const token = await deps.repo.findToken(tokenId);
  if (!token || token.customer_id !== customerId) throw notFound('TOKEN_NOT_FOUND', `No token ${tokenId} of customer ${customerId}.`);
  return (await viewsOf([token], deps.readUsage))[0];
}
