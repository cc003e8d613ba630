/**
 * A scripted ProviderHttp for the Withings unit tests: answers queued responses in order and keeps
 * every request, so a test can check what the adapter sent (form fields, bearer header).
 */
import { ProviderHttp, ProviderRequest, ProviderResponse, ProviderSettings } from '../../provider.port';

export const SETTINGS: ProviderSettings = {
  clientId: 'client-id',
  clientSecret: 'client-secret',
  authUrl: 'https://account.withings.com/oauth2_user/authorize2',
  tokenUrl: 'https://wbsapi.withings.net/v2/oauth2',
  apiUrl: 'https://wbsapi.withings.net',
  redirectUri: 'https://wellstream.example/v2/sources/withings/callback',
  webhookUrl: 'https://wellstream.example/v2/sources/withings/webhook',
};

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): ProviderResponse => ({ status, headers, body: JSON.stringify(body) });

export function scriptedHttp(...answers: ProviderResponse[]): ProviderHttp & { requests: ProviderRequest[] } {
  const requests: ProviderRequest[] = [];
  return {
    requests,
    async send(request) {
      requests.push(request);
      const next = answers.shift();
      if (!next) throw new Error(`unexpected request ${request.url} ${request.form?.action}`);
      return next;
    },
  };
}
