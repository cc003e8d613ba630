/**
 * `push test` posts a signed sample batch to a URL exactly as production push would (one try, its
 * answer printed), so a receiver can be checked before any data flows; `notifications list`,
 * `get` and `redeliver` read the organization's push batches and queue one for delivery again.
 */
import { CliFailure, CliIo, EXIT_USAGE } from '../cli-io';
import { printJson, printTable } from '../output';
import { batchBody, batchIdFor, pushHeaders } from '../push/push-batch';
import { postOnce } from '../push/push-post';
import type { Session } from '../session';

/** A record as push items carry them (the served record shape), with made-up ids. */
function sampleRecord(now: Date) {
  const at = `${now.toISOString().slice(0, 19)}Z`;
  return {
    id: 'rec_sample_0001',
    version: '1.0',
    type: 'measurement',
    source: { type: 'withings' },
    log_id: 'sample-0001',
    start_time: at,
    end_time: at,
    utc_offset: 0,
    metrics: [{ type: 'body_weight', unit: 'kg', value: 71.4, origin: 'device' }],
    user: { uid: 'sample-user', user_id: 'usr_sample', organization_id: 'org_sample' },
    checksum: 'sample',
    created_at: at,
    deleted_at: null,
  };
}

export async function pushTest(io: CliIo, url: string, flags: { secret?: string; json?: boolean; timeout?: string }): Promise<void> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new CliFailure(`push test needs an http(s) URL, got "${url}"`, EXIT_USAGE);
  }
  if (!/^https?:$/.test(target.protocol)) throw new CliFailure(`push test needs an http(s) URL, got "${url}"`, EXIT_USAGE);
  const secret = flags.secret ?? io.env.WELLSTREAM_FORWARD_SECRET;
  if (!secret) throw new CliFailure('push test needs --secret <secret> (or WELLSTREAM_FORWARD_SECRET): the one your receiver verifies with', EXIT_USAGE);
  const now = new Date();
  const batch = { id: batchIdFor('push test', now.toISOString()), items: [sampleRecord(now)] };
  const body = batchBody(batch);
  const answer = await postOnce(target, await pushHeaders(batch.id, body, secret), body, Number(flags.timeout ?? 10) * 1000, io.signal);
  const ok = answer.status >= 200 && answer.status < 300;
  if (flags.json) printJson(io, { batch_id: batch.id, status: answer.status, ok, answer: answer.detail });
  else io.stdout(`POST ${target} batch ${batch.id} -> ${answer.status || answer.detail}${answer.status && answer.detail ? ` ${answer.detail.slice(0, 200)}` : ''}\n`);
  if (!ok) throw new CliFailure(`the receiver did not accept the sample batch (${answer.status ? `status ${answer.status}` : answer.detail})`);
}

export async function targetGet(s: Session): Promise<void> {
  const target = await s.client.notifications.getTarget(s.organization());
  if (s.json) return printJson(s.io, target);
  printTable(s.io, [target as never], ['url', 'created_at', 'updated_at'], s.wide);
}

export async function targetSet(s: Session, url: string, flags: { secret?: string }): Promise<void> {
  const target = await s.client.notifications.setTarget(s.organization(), { url, ...(flags.secret ? { secret: flags.secret } : {}) } as never);
  if (s.json) return printJson(s.io, target);
  s.io.stdout(`push target set to ${target.url}\n`);
}

export async function targetDelete(s: Session): Promise<void> {
  await s.client.notifications.deleteTarget(s.organization());
  if (s.json) return printJson(s.io, { deleted: true });
  s.io.stdout('push target removed\n');
}

export async function notificationsList(s: Session, flags: { status?: string }): Promise<void> {
  const page = await s.client.notifications.listBatches(s.organization(), { status: flags.status } as never);
  if (s.json) return printJson(s.io, page);
  printTable(s.io, page.data as never, ['id', 'status', 'attempts.count', 'attempts.first_at', 'attempts.last_at'], s.wide);
}

export async function notificationsGet(s: Session, batchId: string): Promise<void> {
  const batch = await s.client.notifications.getBatch(s.organization(), batchId);
  if (s.json) return printJson(s.io, batch);
  printTable(s.io, [batch as never], ['id', 'status', 'attempts.count', 'attempts.last_at'], s.wide);
}

export async function notificationsRedeliver(s: Session, batchId: string): Promise<void> {
  const batch = await s.client.notifications.redeliver(s.organization(), batchId);
  if (s.json) return printJson(s.io, batch);
  s.io.stdout(`batch ${batch.id} queued for delivery again (status ${batch.status})\n`);
}
