/**
 * Revocations between gateways: the gateway that revokes a token forgets it at once and publishes
 * a token-revocations event; every gateway follows the topic and forgets the token as the event
 * arrives. A failed publish is logged: the revocation is stored, and other gateways' cached
 * entries expire within the cache's time-to-live.
 */
import type { EventLog, Subscription } from '@wellstream/bus';
import { publishEvents, TokenRevocation, tokenRevocationsTopic } from '@wellstream/contracts';
import type { Logger } from '@wellstream/logging';
import type { AccountCache } from '../accounts/account-cache';

export interface TokenRevocations {
  announce(revocation: TokenRevocation): Promise<void>;
}

export function tokenRevocations(cache: AccountCache, eventLog: EventLog, logger: Logger): TokenRevocations & { follow(): Promise<Subscription> } {
  return {
    async announce(revocation) {
      cache.evictToken(revocation.token_hash);
      await publishEvents(eventLog, tokenRevocationsTopic, [revocation]).catch((err) =>
        logger.warn('could not announce a token revocation; other gateways forget it when their cache expires', { error: err }),
      );
    },
    follow: () =>
      eventLog.tail({
        topic: tokenRevocationsTopic.spec.name,
        // From a little before now: a revocation published while this gateway started still counts.
        fromTimestamp: Date.now() - 60_000,
        handle: async (m) => {
          const hash = (JSON.parse(m.value) as Partial<TokenRevocation>).token_hash;
          if (typeof hash === 'string') cache.evictToken(hash);
        },
      }),
  };
}
