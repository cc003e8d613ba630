/**
 * The stored answers of idempotent writes (@wellstream/http idempotent-writes) in the service's
 * document store, shared by its replicas: one document per (caller, method, path, key), inserted
 * as a claim (the unique _id makes one of two concurrent requests the runner) and completed with
 * the answer. Expired answers are treated as absent and swept on later claims.
 */
import { IDEMPOTENT_ANSWER_TTL_MS, IDEMPOTENT_CLAIM_LEASE_MS, IdempotentAnswers, IdempotentClaim, StoredAnswer } from '@wellstream/http';
import { CollectionSpec, DocumentStore, DuplicateKeyError } from '@wellstream/store';

interface AnswerDoc {
  _id: string;
  request_hash: string;
  state: 'running' | 'answered';
  claimed_at: number;
  expires_at: number;
  user_id?: string;
  answer?: StoredAnswer;
}

export const IDEMPOTENT_ANSWERS = 'idempotent_answers';
/** As every opener declares it: a user's answers go with the user; expired ones are swept. */
export const IDEMPOTENT_ANSWERS_SPEC: CollectionSpec = { name: IDEMPOTENT_ANSWERS, indexes: [{ fields: { user_id: 1 } }, { fields: { expires_at: 1 } }] };
/** Expired answers are removed at most this often (on a claim). */
const SWEEP_EVERY_MS = 60_000;

export async function idempotentAnswers(store: DocumentStore): Promise<IdempotentAnswers> {
  const docs = await store.collection<AnswerDoc>(IDEMPOTENT_ANSWERS_SPEC);
  let lastSweep = 0;
  const sweep = async (nowMs: number) => {
    if (nowMs - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = nowMs;
    await docs.deleteMany({ expires_at: { $lt: nowMs } });
  };

  async function claim(id: string, requestHash: string, nowMs: number, tries = 2): Promise<IdempotentClaim> {
    await sweep(nowMs);
    try {
      await docs.insertOne({ _id: id, request_hash: requestHash, state: 'running', claimed_at: nowMs, expires_at: nowMs + IDEMPOTENT_CLAIM_LEASE_MS });
      return { state: 'claimed' };
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
    const held = await docs.findOne({ _id: id });
    if (!held || held.expires_at < nowMs) {
      // Gone meanwhile, or past its time (an answer after 24 h, a claim whose runner died): claim afresh.
      if (held) await docs.deleteMany({ _id: id, expires_at: held.expires_at });
      if (tries > 0) return claim(id, requestHash, nowMs, tries - 1);
      return { state: 'running', requestHash: held?.request_hash ?? requestHash };
    }
    if (held.state === 'answered' && held.answer) return { state: 'answered', requestHash: held.request_hash, answer: held.answer };
    return { state: 'running', requestHash: held.request_hash };
  }

  return {
    claim: (id, requestHash, nowMs) => claim(id, requestHash, nowMs),
    async complete(id, answer, userId, nowMs) {
      await docs.findOneAndUpdate(
        { _id: id, state: 'running' },
        { $set: { state: 'answered', answer, expires_at: nowMs + IDEMPOTENT_ANSWER_TTL_MS, ...(userId ? { user_id: userId } : {}) } },
      );
    },
    async release(id) {
      await docs.deleteMany({ _id: id, state: 'running' });
    },
    forgetUser: (userId) => docs.deleteMany({ user_id: userId }),
  };
}
