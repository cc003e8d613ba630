/**
 * Idempotent writes: a POST that carries `Idempotency-Key` is answered once per (caller, method,
 * path, key); a retry within IDEMPOTENT_ANSWER_TTL_MS gets the first answer again (status, body and
 * the headers that describe it) without running the handler.
 *
 * Why here and not in the gateway: the gateway streams bodies through (and hands them to in-process
 * services untouched), so comparing bodies there would mean buffering every POST; a service already
 * holds the parsed body and its raw bytes, knows the user an answer belongs to (to forget it with
 * the user's deletion or erasure), and has a document store shared by all its replicas (SQLite
 * embedded, the MongoDB API distributed), so a retry that lands on another replica finds the answer.
 *
 * The caller is the verified customer (developer token), the operator, or for a public route the
 * credential it carries (the mobile token: one user of one customer), so two customers' equal keys
 * never meet. Answers of 5xx are not kept (the retry runs again), nor is an answer never finished.
 * A request that meets the same key still running waits for it (bounded), then answers 409 with
 * Retry-After. The same key with another body answers 422.
 */
import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { AppError, badRequest, unprocessable } from '@wellstream/errors';
import { callerOf, isOperatorCall } from './caller';
import { route } from './create-service-app';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** How long a stored answer is replayed. */
export const IDEMPOTENT_ANSWER_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim older than this is abandoned (its process died): the gateway gives up on a service after 30 s. */
export const IDEMPOTENT_CLAIM_LEASE_MS = 60_000;
/** The answer headers kept and replayed with the body. */
const KEPT_HEADERS = ['content-type', 'location', 'link', 'retry-after'];

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  /** base64 of the body as sent. */
  body: string;
}

export type IdempotentClaim =
  | { state: 'claimed' }
  | { state: 'answered'; requestHash: string; answer: StoredAnswer }
  | { state: 'running'; requestHash: string };

/** Where the answers live (a port: the runtime gives one on the service's document store). */
export interface IdempotentAnswers {
  /** Claims `id` for this request, or says what holds it (an answer, or a request still running). */
  claim(id: string, requestHash: string, nowMs: number): Promise<IdempotentClaim>;
  complete(id: string, answer: StoredAnswer, userId: string | undefined, nowMs: number): Promise<void>;
  /** Gives a claim up (5xx, or the request never finished): the next retry runs. */
  release(id: string): Promise<void>;
  /** The answers about a user (its deletion or erasure). */
  forgetUser(userId: string): Promise<number>;
}

export interface IdempotentWritesOptions {
  /** Who is calling when the route is public (its own credential); run before any stored answer is read. */
  publicCaller?: (req: Request) => Promise<string>;
  /** How long a duplicate waits for the first to finish. */
  waitMs?: number;
  pollMs?: number;
  /** Dates claims and answers (their lease and 24 h). */
  now?: () => number;
}

/** The user a stored answer is about: a route sets it so the answer goes with the user. */
export function answerIsAboutUser(res: Response, userId: string): void {
  res.locals.idempotentUserId = userId;
}

const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

function keyOf(req: Request): string | undefined {
  const value = req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  if (value === undefined) return undefined;
  const key = Array.isArray(value) ? value.join(', ') : value;
  if (key.trim() === '' || key.length > IDEMPOTENCY_KEY_MAX_LENGTH)
    throw badRequest('INVALID_IDEMPOTENCY_KEY', { [IDEMPOTENCY_KEY_HEADER]: [`must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`] });
  return key;
}

function replay(res: Response, answer: StoredAnswer): void {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader('Idempotent-Replayed', 'true');
  res.end(Buffer.from(answer.body, 'base64'));
}

/** Collects the body as it is written, and stores or releases the claim once the answer is done. */
function keepAnswer(res: Response, store: IdempotentAnswers, id: string, now: () => number): void {
  const chunks: Buffer[] = [];
  const collect = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array));
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  (res as { write: unknown }).write = (...args: unknown[]) => {
    collect(args[0], args[1]);
    return write(...args);
  };
  (res as { end: unknown }).end = (...args: unknown[]) => {
    collect(args[0], args[1]);
    return end(...args);
  };
  let settled = false;
  const settle = (finished: boolean) => {
    if (settled) return;
    settled = true;
    const status = res.statusCode;
    const done =
      finished && status < 500
        ? store.complete(id, { status, headers: keptHeaders(res), body: Buffer.concat(chunks).toString('base64') }, res.locals.idempotentUserId as string | undefined, now())
        : store.release(id);
    // The answer is already sent: a store failure leaves the claim to expire (its lease), never a second answer.
    done.catch(() => undefined);
  };
  res.on('finish', () => settle(true));
  res.on('close', () => settle(res.writableFinished));
}

function keptHeaders(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

export function idempotentWrites(store: IdempotentAnswers, options: IdempotentWritesOptions = {}): RequestHandler {
  const now = options.now ?? Date.now;
  const waitMs = options.waitMs ?? 10_000;
  const pollMs = options.pollMs ?? 50;
  return route(async (req, res, next) => {
    const key = keyOf(req);
    if (key === undefined) return next();
    const caller = options.publicCaller
      ? `public:${sha256(await options.publicCaller(req))}`
      : isOperatorCall(req)
        ? 'operator'
        : `customer:${callerOf(req).customerId}`;
    const id = sha256(JSON.stringify([caller, req.method, req.path, key]));
    const rawBody = (req as { rawBody?: Buffer }).rawBody;
    const requestHash = sha256(rawBody ?? '');
    // The wait is real time whatever clock dates the stored answers.
    const deadline = Date.now() + waitMs;
    for (;;) {
      const claim = await store.claim(id, requestHash, now());
      if (claim.state === 'claimed') {
        keepAnswer(res, store, id, now);
        return next();
      }
      if (claim.requestHash !== requestHash)
        throw unprocessable('IDEMPOTENCY_KEY_REUSED', { [IDEMPOTENCY_KEY_HEADER]: ['was used with another request body'] });
      if (claim.state === 'answered') return replay(res, claim.answer);
      if (Date.now() >= deadline)
        throw new AppError('conflict', 'IDEMPOTENT_REQUEST_RUNNING', 'A request with this Idempotency-Key is still running; retry later.', { retryAfterSeconds: 1 });
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  });
}
