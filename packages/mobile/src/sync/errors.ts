/** Typed errors of the SDK, each with a stable `code`. */
export class WellstreamMobileError extends Error {
  constructor(
    readonly code: 'not_configured' | 'not_connected' | 'unauthorized' | 'source_disconnected' | 'rejected' | 'unavailable' | 'store',
    message: string,
  ) {
    super(message);
    this.name = 'WellstreamMobileError';
  }
}

/** 401: the mobile token was revoked or rotated. Syncing stops until connect() with a new token. */
export class UnauthorizedError extends WellstreamMobileError {
  constructor() {
    super('unauthorized', 'The mobile token was refused (401): it was revoked or rotated. Call connect() with the new token.');
  }
}

/** 422 source.type disconnected: the user disconnected this phone source on the marketplace. */
export class SourceDisconnectedError extends WellstreamMobileError {
  constructor(source: string) {
    super('source_disconnected', `The user disconnected ${source} on the marketplace; call connect() to connect it again.`);
  }
}

/** The platform could not be reached or kept answering 429/503 past the retry budget; the queue is kept. */
export class UnavailableError extends WellstreamMobileError {
  constructor(detail: string) {
    super('unavailable', `Wellstream is unavailable (${detail}); the queue is kept for the next sync.`);
  }
}
