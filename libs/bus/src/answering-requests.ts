/**
 * The requests this process is answering now, for history readers to give way to (TimeSlice with
 * `givesWay`). A request counts from its arrival until its response head goes out: an SSE stream
 * or a paged REST read counts only until it starts sending, after that it is a history reader
 * itself. While any is counted, history readers start no slice, so a request waits for at most
 * the slice already running, not for one at each of its hops (gateway, service, store, back). So
 * that endless requests cannot starve them, one waiting reader in turn gets a pass every
 * GIVE_WAY_MAX_MS (about a tenth of the process for history reads while requests never stop).
 *
 * Measured (bench/soak.mjs --preload 20000, end-state ingest p99 12.3 → 10.9 ms; noisy-neighbour
 * GET user p99 13.1 → 10.9 ms with the same replays completed): small, but it bounds what a
 * request can wait behind at one slice whatever the number of hops.
 */

/** The longest a history reader waits for requests to be answered before it gets a pass (in turn). */
export const GIVE_WAY_MAX_MS = 20;

/** Requests this process is answering now, and the history readers waiting for them, in arrival order. */
let answering = 0;
const givingWay: Array<(passed: boolean) => void> = [];
let passTimer: NodeJS.Timeout | undefined;

function handPass(): void {
  passTimer = undefined;
  givingWay.shift()?.(true);
  if (givingWay.length > 0) passTimer = setTimeout(handPass, GIVE_WAY_MAX_MS);
}

/** Lets the waiting readers go once nothing is being answered, after the I/O at hand (the rest of the answer's body). */
function releaseIfIdle(): void {
  if (answering > 0) return;
  clearTimeout(passTimer);
  passTimer = undefined;
  for (const go of givingWay.splice(0)) go(false);
}

function answered(): void {
  if (--answering === 0 && givingWay.length > 0) setImmediate(releaseIfIdle);
}

/** Resolves once no request is being answered (false) or this reader's pass came up (true). */
export function giveWay(): Promise<boolean> {
  return new Promise((resolve) => {
    givingWay.push(resolve);
    passTimer ??= setTimeout(handPass, GIVE_WAY_MAX_MS);
  });
}

/** What `answeringRequest` needs of a response: node's http.ServerResponse has it. */
export interface AnsweredResponse {
  writeHead: (...args: never[]) => unknown;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

/**
 * Counts a request as being answered until its response head is written (or the connection
 * closes): an SSE stream or a paged REST read counts only until it starts sending, after that it
 * is a history reader itself. Call it on every incoming request (the HTTP server does).
 */
export function answeringRequest(res: AnsweredResponse): void {
  answering++;
  let done = false;
  const writeHead = res.writeHead;
  // Once counted out, the response drops the wrapper and its listener: an event stream lives for
  // hours and should not hold them that long.
  const finish = () => {
    if (done) return;
    done = true;
    answered();
    res.off('close', finish);
    // Assigned back, not deleted: a delete would turn the response into a slow dictionary object.
    res.writeHead = writeHead;
  };
  res.writeHead = function (this: unknown, ...args: never[]) {
    finish();
    return writeHead.apply(this, args);
  };
  res.once('close', finish);
}

/** How many requests this process is answering now (a gauge on /metrics). */
export const answeringNow = (): number => answering;
