/**
 * GET /health from named dependency checks, each bounded in time, so a dead dependency is reported
 * (`down`, or `timeout` when it does not answer) instead of holding the probe. All required checks
 * pass → 200 {"status":"ok"}; only optional ones fail → 200 {"status":"degraded","checks":{…}} (the
 * process still serves, e.g. rate limits counted in process); a required one fails → 503
 * {"status":"unavailable","checks":{…}}.
 */
export type HealthCheck = () => Promise<boolean> | boolean;
export type HealthChecks = Record<string, HealthCheck>;
/** One check (the whole service), or named checks. */
export type HealthOption = HealthCheck | HealthChecks;

export type CheckResult = 'ok' | 'down' | 'timeout';

export interface HealthReport {
  status: 200 | 503;
  body: { status: 'ok' } | { status: 'degraded' | 'unavailable'; checks: Record<string, CheckResult> };
}

export const HEALTH_CHECK_TIMEOUT_MS = 2_000;

async function runCheck(check: HealthCheck, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const ok = await Promise.race([
      Promise.resolve().then(check),
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs))),
    ]);
    return ok === 'timeout' ? 'timeout' : ok ? 'ok' : 'down';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

export async function healthReport(option: HealthOption | undefined, options: { optional?: string[]; timeoutMs?: number } = {}): Promise<HealthReport> {
  const checks: HealthChecks = typeof option === 'function' ? { service: option } : (option ?? {});
  const names = Object.keys(checks);
  const results = await Promise.all(names.map((n) => runCheck(checks[n], options.timeoutMs ?? HEALTH_CHECK_TIMEOUT_MS)));
  const byName = Object.fromEntries(names.map((n, i) => [n, results[i]])) as Record<string, CheckResult>;
  const failed = names.filter((n) => byName[n] !== 'ok');
  if (failed.length === 0) return { status: 200, body: { status: 'ok' } };
  const optional = new Set(options.optional ?? []);
  if (failed.every((n) => optional.has(n))) return { status: 200, body: { status: 'degraded', checks: byName } };
  return { status: 503, body: { status: 'unavailable', checks: byName } };
}
