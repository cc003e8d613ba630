/**
 * Suunto is offered only with its API Zone subscription key beside the client id and secret (every
 * data call needs it); its notification secret is optional and reaches the adapter's settings.
 */
import { loadSourcesConfig } from '../../config';

// What every service needs besides (the gateway's signing key).
const service = { WELLSTREAM_GATEWAY_KEYS: 'gateway-key-for-the-config-test-0001' };
const base = { ...service, WELLSTREAM_SOURCE_SUUNTO_CLIENT_ID: 'id', WELLSTREAM_SOURCE_SUUNTO_CLIENT_SECRET: 'secret' };

it('is not offered without its subscription key', () => {
  expect(loadSourcesConfig({ ...base }).providers.suunto).toBeUndefined();
  expect(loadSourcesConfig({ ...service, WELLSTREAM_SOURCE_SUUNTO_SUBSCRIPTION_KEY: 'key' }).providers.suunto).toBeUndefined();
});

it('is offered with the client id, secret and subscription key, carrying them and the notification secret', () => {
  const withKey = loadSourcesConfig({ ...base, WELLSTREAM_SOURCE_SUUNTO_SUBSCRIPTION_KEY: 'key' }).providers.suunto;
  expect(withKey).toMatchObject({ clientId: 'id', apiUrl: 'https://cloudapi.suunto.com', extra: { SUBSCRIPTION_KEY: 'key' } });
  const withSecret = loadSourcesConfig({ ...base, WELLSTREAM_SOURCE_SUUNTO_SUBSCRIPTION_KEY: 'key', WELLSTREAM_SOURCE_SUUNTO_NOTIFICATION_SECRET: 'n' }).providers.suunto;
  expect(withSecret?.extra).toEqual({ SUBSCRIPTION_KEY: 'key', NOTIFICATION_SECRET: 'n' });
});

it('leaves providers without further credentials as they were', () => {
  expect(loadSourcesConfig({ ...service, WELLSTREAM_SOURCE_OURA_CLIENT_ID: 'id', WELLSTREAM_SOURCE_OURA_CLIENT_SECRET: 's' }).providers.oura).toMatchObject({ clientId: 'id', extra: {} });
});
