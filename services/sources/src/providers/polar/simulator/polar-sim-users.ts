/**
 * The Polar simulator's Users routes (AccessLink v3 "Users"): register (`POST /v3/users`, 200, 403
 * without consents, 409 "User already registered to partner or duplicated member-id"), get, and
 * delete ("When partner wishes no longer to receive user data, user can be de-registered. This will
 * revoke the access token authorized by user": 204), with scripted de-registration failures.
 */
import { error, json, PolarAuthServer, Reply } from './polar-sim-auth';
import type { PolarAccount } from './polar-sim-data';

export class PolarUsers {
  private readonly memberIds = new Map<string, number>();
  private revokeFaults = { count: 0, status: 503 };

  constructor(private readonly auth: PolarAuthServer) {}

  /** The next `count` de-registrations answer `status` (503, or 429 with the RateLimit headers). */
  failRevokes(count: number, status: number): void {
    this.revokeFaults = { count, status };
  }

  /** POST /v3/users: 200 with the user, 403 without consents, 409 when already registered or the member-id is taken. */
  register(a: PolarAccount, body: string): Reply {
    let memberId: unknown;
    try {
      memberId = (JSON.parse(body) as Record<string, unknown>)['member-id'];
    } catch {
      return error(400, 'BAD_REQUEST', 'Body is not JSON');
    }
    if (typeof memberId !== 'string' || memberId === '') return error(400, 'BAD_REQUEST', 'member-id is required');
    if (a.consentsMissing) return error(403, 'FORBIDDEN', 'User has not accepted all mandatory consents.');
    const owner = this.memberIds.get(memberId);
    if (a.registeredAt !== null || (owner !== undefined && owner !== a.userId)) return error(409, 'CONFLICT', 'User already registered to partner or duplicated member-id.');
    a.registeredAt = Date.now();
    this.memberIds.set(memberId, a.userId);
    return json(200, this.userDoc(a, memberId));
  }

  private userDoc(a: PolarAccount, memberId: string) {
    return {
      'polar-user-id': a.userId, 'member-id': memberId, 'registration-date': new Date(a.registeredAt ?? Date.now()).toISOString(),
      'first-name': 'Eka', 'last-name': 'Toka', birthdate: '1985-09-06', gender: 'MALE', weight: 66, height: 170, 'extra-info': [],
    };
  }

  /** GET /v3/users/{id} (the user's base information) and DELETE (de-registration, which revokes the token). */
  userRoute(a: PolarAccount, method: string, id: number, token: string): Reply {
    if (id !== a.userId) return error(403, 'FORBIDDEN', 'Not the token\'s user');
    if (a.consentsMissing) return error(403, 'FORBIDDEN', 'User has not accepted all mandatory consents.');
    if (method === 'GET') {
      if (a.registeredAt === null) return { status: 204 };
      const memberId = [...this.memberIds.entries()].find(([, u]) => u === a.userId)?.[0] ?? '';
      return json(200, this.userDoc(a, memberId));
    }
    if (method === 'DELETE') {
      if (this.revokeFaults.count > 0) {
        this.revokeFaults.count--;
        return this.revokeFaults.status === 429 ? error(429, 'TOO_MANY_REQUESTS', 'Rate limit exceeded', { 'ratelimit-reset': '2, 80000' }) : { status: this.revokeFaults.status, headers: { 'content-type': 'text/html' }, body: '<html><body>Service Unavailable</body></html>' };
      }
      this.auth.count(a.userId).revokes++;
      a.registeredAt = null;
      for (const [m, u] of this.memberIds) if (u === a.userId) this.memberIds.delete(m);
      this.auth.revokeToken(token);
      return { status: 204 };
    }
    return error(405, 'METHOD_NOT_ALLOWED', 'Method not allowed');
  }
}
