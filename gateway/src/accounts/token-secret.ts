/**
 * Developer tokens: 32 random bytes, shown once; only their sha256 is stored, so a leaked
 * database does not leak working tokens. Lookups compare hashes, which are not secret.
 */
import { createHash, randomBytes } from 'node:crypto';

export const newToken = (): string => `wst_${randomBytes(32).toString('base64url')}`;
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
export const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;

/** How much of a token is kept for display (see DeveloperToken.prefix). */
export const TOKEN_PREFIX_LENGTH = 12;
export const displayPrefixOf = (token: string): string => token.slice(0, TOKEN_PREFIX_LENGTH);
