/**
 * The `token-revocations` topic: the gateway that revoked a developer token tells every other
 * gateway, so each drops the token from its short-lived identity cache at once.
 */
import Joi from 'joi';
import type { TopicDefinition } from './topic';

export interface TokenRevocation {
  type: 'token.revoked';
  /** sha256 of the token (what the gateways store and cache by; never the token itself). */
  token_hash: string;
  customer_id: string;
  revoked_at: string;
}

export const tokenRevocationsTopic: TopicDefinition<TokenRevocation> = {
  spec: { name: 'token-revocations', partitions: 1, retentionMs: 24 * 3600 * 1000 },
  schema: Joi.object<TokenRevocation>({
    type: Joi.string().valid('token.revoked').required(),
    token_hash: Joi.string().hex().length(64).required(),
    customer_id: Joi.string().required(),
    revoked_at: Joi.string().isoDate().required(),
  }),
  key: (e) => e.token_hash,
  partitionKey: (e) => e.token_hash,
};
