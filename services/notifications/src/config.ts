/**
 * Settings of the notifications (push) service, validated once at start-up. The push settings'
 * names and defaults follow the documented interface (retry delays, flush time); the rest are ours.
 */
import Joi from 'joi';
import { durationList, loadConfig, parseDurationList, serviceSettingsSchema, ServiceSettings } from '@wellstream/config';

export interface NotificationsConfig extends ServiceSettings {
  /** Comma list of delays between delivery attempts: N delays = N + 1 tries. */
  WELLSTREAM_PUSH_RETRY_DELAYS_MS: string;
  /** How long new records gather before a batch is formed. */
  WELLSTREAM_PUSH_FLUSH_MS: number;
  /** A batch is formed at once when this many records wait. */
  WELLSTREAM_PUSH_BATCH_SIZE: number;
  /** Whole-attempt timeout (connect, send, first 2 KiB of the answer). */
  WELLSTREAM_PUSH_TIMEOUT_MS: number;
  /** Private and loopback targets (10/8, 192.168/16, 127/8, ::1, fc00::/7 …); link-local and metadata addresses are refused always. */
  WELLSTREAM_PUSH_ALLOW_PRIVATE_TARGETS: boolean;
  /** How often the scheduler looks for work; default derived from the flush time and the shortest retry delay. */
  WELLSTREAM_PUSH_POLL_MS?: number;
  /** Relative jitter applied to every retry delay (0.1 = ±10 %). */
  WELLSTREAM_PUSH_RETRY_JITTER: number;
}

export const notificationsConfigSchema = Joi.object<NotificationsConfig>({
  ...serviceSettingsSchema,
  WELLSTREAM_PUSH_RETRY_DELAYS_MS: durationList().default('60000,300000,1800000')
    .description('comma list of delays between delivery attempts (N delays: N + 1 tries)'),
  WELLSTREAM_PUSH_FLUSH_MS: Joi.number().integer().min(0).max(3_600_000).default(5000)
    .description('how long new records gather before a batch is formed'),
  WELLSTREAM_PUSH_BATCH_SIZE: Joi.number().integer().min(1).max(10_000).default(100)
    .description('a batch is formed at once when this many records wait'),
  WELLSTREAM_PUSH_TIMEOUT_MS: Joi.number().integer().min(50).max(300_000).default(10_000)
    .description('whole-attempt timeout of one delivery (connect, send, first 2 KiB of the answer)'),
  WELLSTREAM_PUSH_ALLOW_PRIVATE_TARGETS: Joi.boolean().truthy('1', 'yes').falsy('0', 'no').default(false)
    .description('allow push targets on private and loopback addresses (10/8, 192.168/16, 127/8, ::1, fc00::/7 …); link-local and metadata addresses are always refused'),
  WELLSTREAM_PUSH_POLL_MS: Joi.number().integer().min(10).max(60_000)
    .description('how often the delivery scheduler looks for work; unset: half the shortest of the flush time and the retry delays, between 25 ms and 1 s'),
  WELLSTREAM_PUSH_RETRY_JITTER: Joi.number().min(0).max(0.5).default(0.1)
    .description('relative jitter applied to every retry delay (`0.1`: ±10 %)'),
});

export const loadNotificationsConfig = (env: NodeJS.ProcessEnv = process.env): NotificationsConfig => loadConfig(notificationsConfigSchema, env);

/** The push settings in the shape the use cases take (they never read process.env). */
export interface PushSettings {
  retryDelaysMs: number[];
  flushMs: number;
  batchSize: number;
  timeoutMs: number;
  allowPrivateTargets: boolean;
  pollMs: number;
  jitter: number;
}

export function pushSettings(config: NotificationsConfig): PushSettings {
  const retryDelaysMs = parseDurationList(config.WELLSTREAM_PUSH_RETRY_DELAYS_MS);
  const shortest = Math.min(config.WELLSTREAM_PUSH_FLUSH_MS || 1000, ...retryDelaysMs.filter((d) => d > 0), 2000);
  return {
    retryDelaysMs,
    flushMs: config.WELLSTREAM_PUSH_FLUSH_MS,
    batchSize: config.WELLSTREAM_PUSH_BATCH_SIZE,
    timeoutMs: config.WELLSTREAM_PUSH_TIMEOUT_MS,
    allowPrivateTargets: config.WELLSTREAM_PUSH_ALLOW_PRIVATE_TARGETS,
    // Half the shortest wait keeps lateness small without polling a store in a tight loop.
    pollMs: config.WELLSTREAM_PUSH_POLL_MS ?? Math.max(25, Math.min(1000, Math.floor(shortest / 2))),
    jitter: config.WELLSTREAM_PUSH_RETRY_JITTER,
  };
}
