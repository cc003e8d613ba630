/**
 * What the delivery use cases write to: one Server-Sent Events connection, seen without express.
 * `send` resolves only once the frame is in the socket (accepted at once, or after 'drain'), so a
 * consumer can commit exactly what reached the client; it rejects when the client is gone.
 */
export interface EventSink {
  /** Writes `event:` / `id:` / `data:`; `data` must be single-line JSON. */
  send(event: string, data: string, id?: string): Promise<void>;
  /** A best-effort frame (poke): skipped while the client is not reading, never queued up. */
  heartbeat(event: string, data: string): void;
  /** An SSE comment line (`: text`), ignored by clients; best-effort like heartbeat. */
  comment(text: string): void;
  /** When the last frame was written (ms); the poke timer uses it. */
  readonly lastWriteAt: number;
  readonly closed: boolean;
  /** True once the server dropped the client for not reading: what was written to it may all be unread. */
  readonly droppedForNotReading: boolean;
  onClose(listener: () => void): void;
  /** Ends the connection (shutdown, or the server decided to drop the client). */
  close(reason?: string): void;
}

export class ClientGoneError extends Error {
  constructor(reason = 'the client disconnected') {
    super(reason);
    this.name = 'ClientGoneError';
  }
}
