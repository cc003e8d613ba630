/**
 * The HTTP side of an event stream: turns an express response into an EventSink with bounded
 * buffering. A client that stops reading is disconnected when its socket does not drain within the
 * write timeout or when more than the buffer cap is queued; its uncommitted events then go to the
 * other members of the group (or wait for the next one).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ClientGoneError, EventSink } from './event-sink';

export interface SseSettings {
  writeTimeoutMs: number;
  maxBufferBytes: number;
  /** Registers the response so server shutdown can end it; returns the unregister function. */
  trackLongLived(end: () => void): () => void;
}

export function openSse(req: IncomingMessage, res: ServerResponse, settings: SseSettings): EventSink {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  req.socket.setNoDelay(true);
  req.socket.setKeepAlive(true);
  releaseRequestState(req);
  return new SseResponse(res, settings);
}

/**
 * An event stream lives for hours, and the response keeps its request: what only answering the
 * request needed (its headers, express's routing state) would stay that long, a good part of what
 * an idle client costs. Nothing reads them once the stream is open (the request's log line reads
 * only the method and the URL).
 */
function releaseRequestState(req: IncomingMessage): void {
  req.rawHeaders.length = 0;
  req.headers = {};
  const routed = req as unknown as Record<string, unknown>;
  for (const key of ['next', 'route', 'params', 'query', '_parsedUrl', 'body']) routed[key] = undefined;
}

class SseResponse implements EventSink {
  lastWriteAt = Date.now();
  closed = false;
  droppedForNotReading = false;
  private readonly listeners: (() => void)[] = [];
  private drain?: Promise<void>;
  private rejectDrain?: (err: Error) => void;
  private readonly untrack: () => void;

  constructor(
    private readonly res: ServerResponse,
    private readonly settings: SseSettings,
  ) {
    this.untrack = settings.trackLongLived(() => this.close('server shutting down'));
    res.on('close', () => this.finish(new ClientGoneError()));
    // Tells the client (and any proxy) at once that the stream is open.
    this.write(': connected\n\n');
  }

  async send(event: string, data: string, id?: string): Promise<void> {
    // Writers queue behind a pending drain instead of piling frames into the socket buffer: what a
    // connection holds is one frame beyond the socket's high-water mark, plus one message per
    // partition waiting its turn (which the consumer holds anyway).
    while (this.drain) await this.drain;
    if (this.closed) throw new ClientGoneError();
    const accepted = this.write(`event: ${event}\n${id !== undefined ? `id: ${id}\n` : ''}data: ${data}\n\n`);
    if (this.closed) throw new ClientGoneError('the client was disconnected (buffer cap)');
    if (!accepted) await this.waitForDrain();
  }

  heartbeat(event: string, data: string): void {
    if (!this.closed && !this.drain) this.write(`event: ${event}\ndata: ${data}\n\n`);
  }

  comment(text: string): void {
    if (!this.closed && !this.drain) this.write(`: ${text}\n\n`);
  }

  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.listeners.push(listener);
  }

  close(reason = 'closed by the server'): void {
    if (this.closed) return;
    this.finish(new ClientGoneError(reason));
    // end() lets what is queued go out; destroy() below is for clients that are not reading.
    this.res.end();
  }

  private write(frame: string): boolean {
    // A safety net: sends never pile up (see send), so a backlog this big means a stuck socket.
    if (this.res.writableLength > this.settings.maxBufferBytes) {
      this.destroy('buffer cap exceeded');
      return false;
    }
    this.lastWriteAt = Date.now();
    return this.res.write(frame);
  }

  /** One shared wait (and one timer) however many writers are blocked on this client. */
  private waitForDrain(): Promise<void> {
    this.drain ??= new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => this.destroy('write timeout'), this.settings.writeTimeoutMs);
      const settle = (err?: Error) => {
        clearTimeout(timer);
        this.res.off('drain', onDrain);
        this.drain = undefined;
        this.rejectDrain = undefined;
        if (err) reject(err);
        else resolve();
      };
      const onDrain = () => settle();
      this.rejectDrain = settle;
      this.res.on('drain', onDrain);
    });
    return this.drain;
  }

  /** The client is not reading (write timeout, buffer cap): cut it off, queued frames and all. */
  private destroy(reason: string): void {
    if (!this.closed) this.droppedForNotReading = true;
    this.finish(new ClientGoneError(reason));
    this.res.destroy();
  }

  /** Runs once, whoever ends the connection first (client, server, shutdown, slow-client guard). */
  private finish(err: ClientGoneError): void {
    if (this.closed) return;
    this.closed = true;
    this.untrack();
    this.rejectDrain?.(err);
    for (const l of this.listeners.splice(0)) l();
  }
}
