/**
 * How many connections this process sets up at once. When a replica goes away, its clients all
 * reconnect to the others within the same second; setting each one up costs a store read and a
 * member count. Past the limit a client is told to come back (503 with `Retry-After`, a few seconds
 * picked at random so the retries spread out) instead of waiting in a queue it cannot see the end
 * of, and the clients already connected keep their share of the process.
 */
import { AppError } from '@wellstream/errors';

export interface AdmissionSettings {
  /** Connection set-ups in progress at once. */
  maxInProgress: number;
  /** Retry-After is drawn from [min, max] seconds. */
  retryAfterSeconds: { min: number; max: number };
  random?: () => number;
}

export const tooManyConnecting = (retryAfterSeconds: number) =>
  new AppError('unavailable', 'STREAM_CONNECT_BUSY', 'Too many clients are connecting to this server at once; retry after the time in Retry-After.', {
    retryAfterSeconds,
  });

export class ConnectAdmission {
  private inProgress = 0;

  constructor(private readonly settings: AdmissionSettings) {}

  /** Takes a place or throws 503; the returned function gives the place back (call it once). */
  enter(): () => void {
    if (this.inProgress >= this.settings.maxInProgress) {
      const { min, max } = this.settings.retryAfterSeconds;
      throw tooManyConnecting(min + Math.floor((this.settings.random ?? Math.random)() * (max - min + 1)));
    }
    this.inProgress++;
    return () => {
      this.inProgress--;
    };
  }
}
