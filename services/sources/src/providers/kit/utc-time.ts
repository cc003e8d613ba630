/**
 * UTC instant helpers shared by the adapters: every record time is written as
 * `YYYY-MM-DDThh:mm:ssZ`, whatever precision the provider gave.
 */

export const DAY_MS = 86_400_000;

/** `YYYY-MM-DDThh:mm:ssZ`, the record time format (fractions of a second floored: they are not kept). */
export const utcTime = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19) + 'Z';

/** The UTC calendar day of an instant, `YYYY-MM-DD`. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export const startOfUtcDay = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;
