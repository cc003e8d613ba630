/**
 * listen, replay and tail: read a stream's connection or the replay through the SDK (which
 * reconnects with Last-Event-ID by itself) and print or forward each event. `listen` saves the id of
 * each event it has handled, so a restarted CLI resumes after it; Ctrl-C (the io signal) ends them.
 */
import { randomBytes } from 'node:crypto';
import type { EventStream, EventStreamOptions, WellstreamEvent } from '@wellstream/sdk';
import { CliFailure, EXIT_USAGE } from '../cli-io';
import { forwardEvent } from '../event-forwarder';
import { describeEvent } from '../output';
import type { Session } from '../session';

export interface ForwardFlags {
  forwardTo?: string;
  secret?: string;
}

interface Counts {
  events: number;
  delivered: number;
  failed: number;
}

/** The signing secret: --secret, WELLSTREAM_FORWARD_SECRET, the saved one, or a new one that is saved. */
function forwardSecret(s: Session, flags: ForwardFlags): string {
  const given = flags.secret ?? s.io.env.WELLSTREAM_FORWARD_SECRET ?? s.login.forward_secret;
  if (given) return given;
  const secret = `wsf_${randomBytes(24).toString('hex')}`;
  if (s.store.readLogin()) s.store.saveLogin({ ...s.store.readLogin()!, forward_secret: secret });
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

function streamOptions(s: Session, extra: EventStreamOptions = {}): EventStreamOptions {
  return {
    signal: s.io.signal,
    onReconnect: ({ attempt, delayMs, reason }) => s.io.stderr(`reconnecting in ${(delayMs / 1000).toFixed(1)} s (attempt ${attempt}): ${reason}\n`),
    ...extra,
  };
}

/** Reads `events` until stopped, handling each in turn; prints progress to stderr on long runs. */
async function consume(s: Session, events: EventStream, handle: (e: WellstreamEvent) => Promise<'delivered' | 'failed' | 'shown' | 'skip' | 'stop'>): Promise<Counts> {
  const counts: Counts = { events: 0, delivered: 0, failed: 0 };
  let lastProgress = Date.now();
  for await (const event of events) {
    const outcome = await handle(event);
    if (outcome === 'stop') break;
    if (outcome === 'skip') continue;
    counts.events++;
    if (outcome === 'delivered') counts.delivered++;
    if (outcome === 'failed') counts.failed++;
    if (!s.json && Date.now() - lastProgress > 10_000) {
      lastProgress = Date.now();
      s.io.stderr(`… ${counts.events} events, ${counts.delivered} delivered, ${counts.failed} failed\n`);
    }
  }
  return counts;
}

function forwarder(s: Session, flags: ForwardFlags, onHandled?: (e: WellstreamEvent) => void) {
  const secret = forwardSecret(s, flags);
  s.io.stderr(`Forwarding to ${flags.forwardTo}, signed with secret ${secret} (verify with verifyPushSignature)\n`);
  return async (event: WellstreamEvent): Promise<'delivered' | 'failed'> => {
    const outcome = await forwardEvent(event, { url: flags.forwardTo!, secret, signal: s.io.signal });
    onHandled?.(event);
    if (s.json) s.io.stdout(JSON.stringify({ event: event.type, id: event.id ?? null, status: outcome.status, ok: outcome.ok, attempts: outcome.attempts, ms: outcome.ms, ...(outcome.error ? { error: outcome.error } : {}) }) + '\n');
    else s.io.stdout(`${new Date().toISOString()}  ${event.type.padEnd(10)} ${(event.id ?? '').padEnd(10)} -> ${outcome.status || outcome.error} ${outcome.ok ? '' : '(not delivered) '}(${outcome.ms} ms)\n`);
    return outcome.ok ? 'delivered' : 'failed';
  };
}

function printEvent(s: Session, event: WellstreamEvent): 'shown' {
  if (s.json) s.io.stdout(JSON.stringify({ event: event.type, id: event.id ?? null, data: event.data }) + '\n');
  else s.io.stdout(`${event.type.padEnd(10)} ${(event.id ?? '').padEnd(10)} ${describeEvent(event)}\n`);
  return 'shown';
}

function finish(s: Session, counts: Counts, forwarding: boolean): void {
  if (!s.json) s.io.stderr(`${counts.events} events${forwarding ? `, ${counts.delivered} delivered, ${counts.failed} not delivered` : ''}\n`);
  if (counts.failed > 0) throw new CliFailure(`${counts.failed} events could not be delivered`);
}

export async function listen(s: Session, streamId: string, flags: ForwardFlags & { fromStart?: boolean }): Promise<void> {
  checkForwardUrl(flags.forwardTo);
  const baseUrl = s.client.baseUrl;
  const saved = flags.fromStart ? undefined : s.store.readPosition(baseUrl, streamId);
  if (saved && !s.json) s.io.stderr(`Resuming after event ${saved}\n`);
  const events = s.client.streams.connect(streamId, streamOptions(s, { lastEventId: saved }));
  const keep = (e: WellstreamEvent) => e.id && s.store.savePosition(baseUrl, streamId, e.id);
  const handle = flags.forwardTo ? forwarder(s, flags, keep) : async (e: WellstreamEvent) => (keep(e), printEvent(s, e));
  finish(s, await consume(s, events, handle), Boolean(flags.forwardTo));
}

export async function tail(s: Session, streamId: string, flags: { pokes?: boolean }): Promise<void> {
  const events = s.client.streams.connect(streamId, streamOptions(s, { includePokes: Boolean(flags.pokes) }));
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
    streamOptions(s, { includePokes: true, onComment: (c) => (caughtUp ||= c === 'replay caught up') }),
  );
  const deliver = flags.forwardTo ? forwarder(s, flags) : async (e: WellstreamEvent) => printEvent(s, e);
  const counts = await consume(s, events, async (e) => {
    if (e.type === 'poke') return caughtUp && flags.untilCaughtUp ? 'stop' : 'skip';
    return deliver(e);
  });
  finish(s, counts, Boolean(flags.forwardTo));
}
