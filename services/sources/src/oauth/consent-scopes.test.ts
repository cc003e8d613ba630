/**
 * Reading what a user granted at consent against what the adapter asked: none of the data scopes
 * (no connection), some refused (missing_permissions), a narrower part of one (Strava), the
 * separators providers use, and an answer that says nothing; and every adapter's declared data scopes
 * are ones its authorize URL really asks for.
 */
import { MemoryProviderBudgetStore } from '../providers/budget/provider-budget.memory';
import { readConsent, scopeList } from './consent-scopes';
import { providerDefinition } from '@wellstream/providers';
import { PROVIDER_TYPES } from '../providers/provider-defaults';
import { ProviderRegistry } from '../providers/provider-registry';
import type { ProviderHttp } from '../providers/provider.port';

const strava = { data: [{ scope: 'activity:read_all', partlyBy: ['activity:read'] }] };
const oura = { data: [{ scope: 'daily' }, { scope: 'heartrate' }, { scope: 'workout' }] };

describe('readConsent', () => {
  it('splits scopes on spaces, commas and plus signs', () => {
    expect(scopeList('read,activity:read_all')).toEqual(['read', 'activity:read_all']);
    expect(scopeList('daily heartrate+workout')).toEqual(['daily', 'heartrate', 'workout']);
  });

  it('Strava: everything, private activities refused, or no activity scope at all', () => {
    expect(readConsent(strava, 'read,activity:read_all')).toEqual({ dataGranted: true, missing: [] });
    expect(readConsent(strava, 'read,activity:read')).toEqual({ dataGranted: true, missing: ['activity:read_all'] });
    expect(readConsent(strava, 'read')).toEqual({ dataGranted: false, missing: ['activity:read_all'] });
    expect(readConsent(strava, '')).toEqual({ dataGranted: false, missing: ['activity:read_all'] });
  });

  it('Oura: one scope switched off is missing; none granted is no data', () => {
    expect(readConsent(oura, 'daily workout')).toEqual({ dataGranted: true, missing: ['heartrate'] });
    expect(readConsent(oura, 'email personal')).toEqual({ dataGranted: false, missing: ['daily', 'heartrate', 'workout'] });
  });

  it('takes the grant as asked when the provider does not say, or consent is all or nothing', () => {
    expect(readConsent(oura, undefined)).toEqual({ dataGranted: true, missing: [] });
    expect(readConsent(undefined, 'offline_access')).toEqual({ dataGranted: true, missing: [] });
  });
});

describe('every adapter\'s data scopes', () => {
  const transport: ProviderHttp = { send: async () => ({ status: 500, headers: {}, body: '' }) };
  const providers = Object.fromEntries(PROVIDER_TYPES.map((t) => [t, { clientId: 'id', clientSecret: 'secret', authUrl: 'https://auth.example/authorize', tokenUrl: 'https://auth.example/token', apiUrl: 'https://api.example', rateLimits: [{ limit: 60, windowMs: 60_000 }] }]));
  const registry = new ProviderRegistry({ providers, WELLSTREAM_PUBLIC_URL: 'https://ws.example' } as never, transport, new MemoryProviderBudgetStore());

  it.each(PROVIDER_TYPES)('%s: each is asked for on the consent page', (type) => {
    const p = registry.get(type)!;
    const challenge = p.adapter.pkce ? { codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' } : {};
    const asked = scopeList(new URL(p.adapter.authorizeUrl(p.settings, { state: 'state-of-at-least-eight', ...challenge })).searchParams.get('scope') ?? '');
    for (const d of p.adapter.consentScopes?.data ?? []) expect(asked).toContain(d.scope);
    // A definition that says consent is all or nothing declares no data scopes to read back.
    expect(p.adapter.consentScopes === undefined).toBe((providerDefinition(type).capabilities.consent as string) === 'all-or-nothing');
  });
});
