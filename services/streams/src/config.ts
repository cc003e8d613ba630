/**
 * Settings of the streams service, validated once at start-up.
 */
import Joi from 'joi';
import { loadConfig, serviceSettingsSchema, ServiceSettings } from '@wellstream/config';

export interface StreamsConfig extends ServiceSettings {
  /** Connected clients (consumer-group members) allowed per stream. */
  WELLSTREAM_STREAM_MAX_MEMBERS: number;
  /** A `poke` is sent whenever this long passes without another event (spec: 5 s). */
  WELLSTREAM_POKE_INTERVAL_MS: number;
  /** A client whose socket does not drain within this long is disconnected. */
  WELLSTREAM_STREAM_WRITE_TIMEOUT_MS: number;
  /** A client with more than this many bytes queued in its socket is disconnected. */
  WELLSTREAM_STREAM_MAX_BUFFER_BYTES: number;
  /** When a client goes, what it was written this long before is written again to the next owner of its users. */
  WELLSTREAM_STREAM_RESEND_WINDOW_MS: number;
  /** Replay connections one customer may hold open at once (per streams-service process). */
  WELLSTREAM_REPLAY_MAX_PER_CUSTOMER: number;
  /** Read-only stream tails one customer may hold open at once (per streams-service process). */
  WELLSTREAM_TAIL_MAX_PER_CUSTOMER: number;
  /** Events per second one replay connection may send. */
  WELLSTREAM_REPLAY_MAX_EVENTS_PER_SECOND: number;
  /** Stream connections one customer may hold open at once (per streams-service process). */
  WELLSTREAM_STREAM_MAX_CONNECTIONS_PER_CUSTOMER: number;
  /** Stream connections this process sets up at once; past it, 503 with Retry-After. */
  WELLSTREAM_STREAM_MAX_CONNECTING: number;
}

export const streamsConfigSchema = Joi.object<StreamsConfig>({
  ...serviceSettingsSchema,
  WELLSTREAM_STREAM_MAX_MEMBERS: Joi.number().integer().min(1).max(1000).default(5)
    .description('connected clients (consumer-group members) allowed per stream'),
  WELLSTREAM_POKE_INTERVAL_MS: Joi.number().integer().min(50).max(600_000).default(5000)
    .description('SSE heartbeat: a `poke` is sent whenever this long passes without another event'),
  WELLSTREAM_STREAM_WRITE_TIMEOUT_MS: Joi.number().integer().min(100).max(600_000).default(30_000)
    .description('a stream client whose socket does not drain within this long is disconnected'),
  WELLSTREAM_STREAM_MAX_BUFFER_BYTES: Joi.number().integer().min(16 * 1024).max(256 * 1024 * 1024).default(1024 * 1024)
    .description('a stream client with more than this many bytes queued in its socket is disconnected'),
  // What a reading client can have on its way when its connection ends (connection-writes.ts).
  WELLSTREAM_STREAM_RESEND_WINDOW_MS: Joi.number().integer().min(0).max(600_000).default(5000)
    .description('when a stream client goes, what it was written this long before is written again to the next owner of its users (it may not have read it)'),
  WELLSTREAM_REPLAY_MAX_PER_CUSTOMER: Joi.number().integer().min(1).max(10_000).default(3)
    .description('replay connections one customer may hold open at once, per streams-service process (429 + `Retry-After` past it)'),
  // A tail reads the customer's slice of the log on its own, as a replay does, for watching: a few.
  WELLSTREAM_TAIL_MAX_PER_CUSTOMER: Joi.number().integer().min(1).max(10_000).default(3)
    .description('read-only stream tails (`GET /streams/:id/tail`) one customer may hold open at once, per streams-service process (429 + `Retry-After` past it)'),
  // 100,000 events (a large customer's month) in 20 s, while 3 replays of one customer stay
  // within what the broker, the gateway and this process serve beside everyone's live delivery.
  WELLSTREAM_REPLAY_MAX_EVENTS_PER_SECOND: Joi.number().integer().min(10).max(1_000_000).default(5000)
    .description('events per second one replay connection may send (history and live part alike)'),
  // 5 streams × 5 members: the documented limits, so by default only this process's share counts.
  WELLSTREAM_STREAM_MAX_CONNECTIONS_PER_CUSTOMER: Joi.number().integer().min(1).max(100_000).default(25)
    .description('stream connections one customer may hold open at once, per streams-service process (429 + `Retry-After` past it)'),
  // A set-up is a store read and a member count, a few ms: 200 at once keeps a reconnect storm's
  // queue under a second while the clients already connected keep their share of the process.
  WELLSTREAM_STREAM_MAX_CONNECTING: Joi.number().integer().min(1).max(100_000).default(200)
    .description('stream connections one streams process sets up at once; past it 503 + `Retry-After` (1–5 s)'),
});

export const loadStreamsConfig = (env: NodeJS.ProcessEnv = process.env): StreamsConfig => loadConfig(streamsConfigSchema, env);
