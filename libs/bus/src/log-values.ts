/**
 * How the embedded log stores a message's value: deflated (raw, level 1). A record's JSON repeats
 * its field names and shrinks to about half, and the log holds 30 days of them. Rows written before
 * values were deflated hold text and read as they are.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

export const packValue = (value: string): Buffer => deflateRawSync(value, { level: 1 });

export const unpackValue = (stored: string | Buffer): string => (typeof stored === 'string' ? stored : inflateRawSync(stored).toString('utf8'));
