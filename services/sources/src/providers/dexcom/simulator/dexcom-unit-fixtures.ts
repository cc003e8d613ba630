/**
 * Test fixtures for the Dexcom unit tests: answers shaped like the examples of the v3 endpoint
 * pages (developer.dexcom.com/docs/dexcomv3/operation/getEstimatedGlucoseValuesV3 and
 * getCalibrationsV3: the documented fields, recordType "egv"/"calibration", recordVersion "3.0"),
 * and a ProviderHttp that answers from a queue and keeps every request.
 */
import { ProviderHttp, ProviderRequest, ProviderResponse, ProviderSettings } from '../../provider.port';

export const settings: ProviderSettings = {
  clientId: 'client-1',
  clientSecret: 'secret-1',
  authUrl: 'https://sandbox-api.dexcom.com/v2/oauth2/login',
  tokenUrl: 'https://sandbox-api.dexcom.com/v2/oauth2/token',
  apiUrl: 'https://sandbox-api.dexcom.com',
  redirectUri: 'https://wellstream.example/v2/sources/dexcom/callback',
  webhookUrl: 'https://wellstream.example/v2/sources/dexcom/webhook',
};

export function fakeHttp(...answers: Partial<ProviderResponse>[]): ProviderHttp & { requests: ProviderRequest[] } {
  const requests: ProviderRequest[] = [];
  return {
    requests,
    async send(request) {
      requests.push(request);
      const next = answers.shift();
      if (!next) throw new Error('fakeHttp: no answer left');
      return { status: next.status ?? 200, headers: next.headers ?? {}, body: next.body ?? '' };
    },
  };
}

export const json = (body: unknown, status = 200): Partial<ProviderResponse> => ({ status, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

export const egv = (over: Record<string, unknown>): Record<string, unknown> => ({
  recordId: 'a1b2c3d4-0000-4000-8000-000000000001',
  systemTime: '2025-02-06T09:12:35',
  displayTime: '2025-02-06T01:12:35',
  transmitterId: '5a9c2b1e',
  transmitterTicks: 5796740,
  value: 112,
  status: 'ok',
  trend: 'flat',
  trendRate: 0.1,
  unit: 'mg/dL',
  rateUnit: 'mg/dL/min',
  displayDevice: 'receiver',
  transmitterGeneration: 'g7',
  ...over,
});

export const egvsAnswer = (records: Record<string, unknown>[]) => ({ recordType: 'egv', recordVersion: '3.0', userId: 'user-dexcom-1', records });

export const calibration = (over: Record<string, unknown>): Record<string, unknown> => ({
  recordId: 'c0ffee00-0000-4000-8000-000000000001',
  systemTime: '2025-02-06T07:30:00',
  displayTime: '2025-02-05T23:30:00',
  unit: 'mg/dL',
  value: 118,
  displayDevice: 'receiver',
  transmitterId: '5a9c2b1e',
  transmitterTicks: 5790000,
  transmitterGeneration: 'g6',
  ...over,
});

export const calibrationsAnswer = (records: Record<string, unknown>[]) => ({ recordType: 'calibration', recordVersion: '3.0', userId: 'user-dexcom-1', records });
