import { isAppError } from '@wellstream/errors';
import { matchRoute } from './route-table';

describe('matchRoute', () => {
  it('decodes the organization id', () => {
    expect(matchRoute('/v2/organizations/org%5F1/users')?.organizationId).toBe('org_1');
  });

  it('refuses an organization segment that is not valid percent-encoding with a 400 error (not a URIError)', () => {
    let thrown: unknown;
    try {
      matchRoute('/v2/organizations/%E0%A4%A/users');
    } catch (err) {
      thrown = err;
    }
    expect(isAppError(thrown) && thrown.kind).toBe('bad_request');
  });
});
