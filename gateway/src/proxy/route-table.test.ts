import { isAppError } from '@wellstream/errors';
import { decodeOrganizationId, matchRoute } from './route-table';

describe('matchRoute', () => {
  it('names the service, the authentication and the organization segment as sent', () => {
    const match = matchRoute('/v2/organizations/org%5F1/users');
    expect(match?.rule.service).toBe('users');
    expect(match?.rule.auth).toBe('developer');
    expect(match?.organizationSegment).toBe('org%5F1');
  });

  it('leaves unknown paths (the gateway’s own) unmatched', () => {
    expect(matchRoute('/v2/admin/customers')).toBeUndefined();
    expect(matchRoute('/health')).toBeUndefined();
  });
});

describe('decodeOrganizationId', () => {
  it('decodes percent-encoding', () => {
    expect(decodeOrganizationId('org%5F1')).toBe('org_1');
  });

  it('refuses a segment that is not valid percent-encoding with a 400 error (not a URIError)', () => {
    let thrown: unknown;
    try {
      decodeOrganizationId('%E0%A4%A');
    } catch (err) {
      thrown = err;
    }
    expect(isAppError(thrown) && thrown.kind).toBe('bad_request');
  });
});
