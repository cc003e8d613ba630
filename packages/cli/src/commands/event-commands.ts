/**
 * listen, replay and tail: read a stream's connection or the replay through the SDK (which
 * reconnects with Last-Event-ID by itself) and print or forward each event. Forwarding posts each
 * record as production push does (a batch of one) and tries until the receiver takes it; `listen`
 * saves an event's id only once it was delivered, so a restarted CLI resumes with the first event
 * not yet delivered. Ctrl-C (the io signal) ends them.
 */
import { randomBytes } from 'node:crypto';
import type { EventStream, EventStreamOptions, WellstreamEvent } from '@wellstream/sdk';
import { CliFailure, EXIT_USAGE } from '../cli-io';
import { describeEvent } from '../output';
import { batchIdFor } from '../push/push-batch';
import { deliverUntilAccepted } from '../push/deliver-until-accepted';
import type { Session } from '../session';

export interface ForwardFlags {
  forwardTo?: string;
  secret?: string;
  /** Seconds per delivery try. */
  timeout?: string;
}

interface Counts {
  events: number;
  delivered: number;
}

/** The signing secret: --secret, WELLSTREAM_FORWARD_SECRET, the saved one, or a new one that is saved. */
function forwardSecret(s: Session, flags: ForwardFlags): string {
  const given = flags.secret ?? s.io.env.WELLSTREAM_FORWARD_SECRET ?? s.login.forward_secret;
  if (given) return given;
  const secret = `wsf_${randomBytes(24).toString('hex')}`;
  const saved = s.store.readLogin(s.profile);
  if (saved) s.store.saveLogin(s.profile, { ...saved, forward_secret: secret });
  return secret;
}

function checkForwardUrl(url: string | undefined): void {
  if (url === undefined) return;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliFailure(`--forward-to must be an http(s) URL, got "${url}"`, EXIT_USAGE);
  }
  if (!/^https?:$/.test(parsed.protocol)) throw new CliFailure(`--forward-to must be an http(s) URL, got "${url}"`, EXIT_USAGE);
}

function streamOptions(s: Session, what: string, extra: EventStreamOptions = {}): EventStreamOptions {
  return {
    signal: s.io.signal,
    onOpen: ({ reconnect, lastEventId }) => s.io.stderr(reconnect ? `reconnected to ${what}${lastEventId ? ` after event ${lastEventId}` : ''}\n` : `connected to ${what}\n`),
    onReconnect: ({ attempt, delayMs, reason }) => s.io.stderr(`reconnecting to ${what} at ${s.client.baseUrl} in ${(delayMs / 1000).toFixed(1)} s (attempt ${attempt}): ${reason}\n`),
    ...extra,
  };
}

/** Reads `events` until stopped, handling each in turn; prints progress to stderr on long runs. */
async function consume(s: Session, events: EventStream, handle: (e: WellstreamEvent) => Promise<Outcome>): Promise<Counts> {
  const counts: Counts = { events: 0, delivered: 0 };
  let lastProgress = Date.now();
  for await (const event of events) {
    const outcome = await handle(event);
    if (outcome === 'stop') break;
    if (outcome === 'skip') continue;
    counts.events++;
    if (outcome === 'delivered') counts.delivered++;
    if (!s.json && Date.now() - lastProgress > 10_000) {
      lastProgress = Date.now();
      s.io.stderr(`… ${counts.events} events, ${counts.delivered} delivered\n`);
    }
  }
  return counts;
}

type Outcome = 'delivered' | 'shown' | 'skip' | 'stop';

/**
 * Forwards records as push batches of one, each tried until the receiver answers 2xx; other events
 * are shown but not posted (push carries records only). `onHandled` runs once an event is done
 * with (delivered, or shown); an event still undelivered when Ctrl-C comes is not handed to it.
 */
function forwarder(s: Session, flags: ForwardFlags, scope: string, onHandled?: (e: WellstreamEvent) => void) {
  const secret = forwardSecret(s, flags);
  const url = new URL(flags.forwardTo!);
  const timeoutMs = flags.timeout === undefined ? 10_000 : Number(flags.timeout) * 1000;
  if (!(timeoutMs > 0)) throw new CliFailure(`--timeout must be a number of seconds, got "${flags.timeout}"`, EXIT_USAGE);
  s.io.stderr(
    `Forwarding records to ${url} as production push posts them (batches of one), signed with secret ${secret}; ` +
      'each is tried until your receiver answers 2xx. Connection and rule events are shown, not posted (push carries records only).\n',
  );
  return async (event: WellstreamEvent): Promise<Outcome> => {
    if (event.type !== 'data') {
      if (s.json) s.io.stdout(JSON.stringify({ event: event.type, id: event.id ?? null, forwarded: false }) + '\n');
      else s.io.stdout(`${new Date().toISOString()}  ${event.type.padEnd(10)} ${(event.id ?? '').padEnd(10)} (not posted: push carries records only)\n`);
      onHandled?.(event);
      return 'shown';
    }
    const batch = { id: batchIdFor(scope, event.id ?? ''), items: [event.data] };
    const result = await deliverUntilAccepted(batch, {
      url,
      secret,
      timeoutMs,
      signal: s.io.signal,
      onFailure: ({ attempt, answer, delayMs }) =>
        s.io.stderr(`event ${event.id ?? ''} (batch ${batch.id}): ${answer.status ? `answered ${answer.status}` : answer.detail} on try ${attempt}; trying again in ${(delayMs / 1000).toFixed(1)} s\n`),
    });
    if (result === 'stopped') {
      s.io.stderr(`stopped before event ${event.id ?? ''} was delivered; it is sent again on the next run\n`);
      return 'stop';
    }
    onHandled?.(event);
    if (s.json) s.io.stdout(JSON.stringify({ event: event.type, id: event.id ?? null, batch_id: batch.id, status: result.answer.status, attempts: result.attempts, ms: result.ms }) + '\n');
    else s.io.stdout(`${new Date().toISOString()}  ${event.type.padEnd(10)} ${(event.id ?? '').padEnd(10)} -> ${result.answer.status} (${result.ms} ms${result.attempts > 1 ? `, ${result.attempts} tries` : ''})\n`);
    return 'delivered';
  };
}

function printEvent(s: Session, event: WellstreamEvent): 'shown' {
  if (s.json) s.io.stdout(JSON.stringify({ event: event.type, id: event.id ?? null, data: event.data }) + '\n');
  else s.io.stdout(`${event.type.padEnd(10)} ${(event.id ?? '').padEnd(10)} ${describeEvent(event)}\n`);
  return 'shown';
}

function finish(s: Session, counts: Counts, forwarding: boolean): void {
  if (!s.json) s.io.stderr(`${counts.events} events${forwarding ? `, ${counts.delivered} records delivered` : ''}\n`);
}

export async function listen(s: Session, streamId: string, flags: ForwardFlags & { fromStart?: boolean }): Promise<void> {
  checkForwardUrl(flags.forwardTo);
  const baseUrl = s.client.baseUrl;
  const saved = flags.fromStart ? undefined : s.store.readPosition(baseUrl, streamId);
  s.io.stderr(saved ? `Resuming after the last events delivered (${saved}; --from-start ignores them)\n` : `Starting at the stream's current position\n`);
  const events = s.client.streams.connect(streamId, streamOptions(s, `stream ${streamId}`, { lastEventId: saved }));
  // Saved once an event is done with: per partition, the last event delivered (events.position).
  const keep = (e: WellstreamEvent) => e.id && s.store.savePosition(baseUrl, streamId, events.position ?? e.id);
  const handle = flags.forwardTo ? forwarder(s, flags, `listen\n${streamId}`, keep) : async (e: WellstreamEvent) => (keep(e), printEvent(s, e));
  finish(s, await consume(s, events, handle), Boolean(flags.forwardTo));
}

export async function tail(s: Session, streamId: string, flags: { pokes?: boolean }): Promise<void> {
  // Read-only: the tail joins no consumer group, so the stream's own clients keep every event.
  const events = s.client.streams.tail(streamId, streamOptions(s, `the tail of stream ${streamId}`, { includePokes: Boolean(flags.pokes) }));
  finish(s, await consume(s, events, async (e) => printEvent(s, e)), false);
}

export async function replay(s: Session, flags: ForwardFlags & { since?: string; resources?: string; eventTypes?: string; untilCaughtUp?: boolean }): Promise<void> {
  checkForwardUrl(flags.forwardTo);
  if (flags.since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(flags.since)) throw new CliFailure(`--since must be a date YYYY-MM-DD, got "${flags.since}"`, EXIT_USAGE);
  // The server marks the end of history with a comment and then a poke; the poke is queued in order
  // after the last historical event, so stopping at it hands out everything before it.
  let caughtUp = false;
  const events = s.client.replay(
    { date: flags.since, resources: flags.resources, event_types: flags.eventTypes } as never,
    streamOptions(s, 'the replay', { includePokes: true, onComment: (c) => (caughtUp ||= c === 'replay caught up') }),
  );
  const deliver = flags.forwardTo ? forwarder(s, flags, 'replay') : async (e: WellstreamEvent) => printEvent(s, e);
  const counts = await consume(s, events, async (e) => {
    if (e.type === 'poke') return caughtUp && flags.untilCaughtUp ? 'stop' : 'skip';
    return deliver(e);
  });
  finish(s, counts, Boolean(flags.forwardTo));
}
