/**
 * A push delivery as a receiver handles it: the signature checked against one or several secrets
 * (a rotation), then the body parsed into its typed batch, `{id, items}`, each item the record as
 * streams deliver it. Any other body is refused with a typed error rather than half-read.
 */
import { SignatureVerificationError } from './errors';
import type { components } from './generated/events';
import { HeaderSource, pushHeader, verifyPushSignature, VerifyOptions } from './push-signature';

/** One record of a batch: the same payload as a stream's `data` event. */
export type PushItem = components['schemas']['DataEvent'];

export interface PushBatch {
  /** The batch id (also `X-Wellstream-Batch-Id`); the same on every try of the batch: drop one you already have. */
  id: string;
  items: PushItem[];
  /** Items left out because their user was deleted (`X-Wellstream-Withheld-Items`), 0 when none. */
  withheldItems: number;
}

const decoder = new TextDecoder();

/**
 * Verifies and parses one delivery: `await constructPushBatch(req.body, req.headers, [current, previous])`
 * with the raw body. Rejects with SignatureVerificationError (`reason`) for a delivery that is not
 * genuine, including a body that is not a batch or whose id differs from `X-Wellstream-Batch-Id`.
 */
export async function constructPushBatch(rawBody: string | Uint8Array, headers: HeaderSource, secrets: string | readonly string[], options: VerifyOptions = {}): Promise<PushBatch> {
  await verifyPushSignature(rawBody, headers, secrets, options);
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof rawBody === 'string' ? rawBody : decoder.decode(rawBody));
  } catch {
    throw new SignatureVerificationError('malformed_body', 'the body is not JSON');
  }
  const body = parsed as { id?: unknown; items?: unknown };
  if (typeof body !== 'object' || body === null || typeof body.id !== 'string' || !Array.isArray(body.items)) {
    throw new SignatureVerificationError('malformed_body', 'the body is not a push batch {"id","items":[…]}');
  }
  const batchId = pushHeader(headers, 'x-wellstream-batch-id');
  if (batchId !== undefined && batchId !== body.id) throw new SignatureVerificationError('malformed_body', `X-Wellstream-Batch-Id ${batchId} is not the body's id ${body.id}`);
  const withheld = Number(pushHeader(headers, 'x-wellstream-withheld-items') ?? 0);
  return { id: body.id, items: body.items as PushItem[], withheldItems: Number.isInteger(withheld) && withheld > 0 ? withheld : 0 };
}
