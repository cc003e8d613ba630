/**
 * A ProviderHttp that answers from a script, for adapters' unit tests: each call takes the next
 * answer (status 200 and an empty body when the script has run out) and is kept in `sent`, so a
 * test can check what the adapter asked exactly as the provider documents it.
 */
import type { ProviderHttp, ProviderRequest, ProviderResponse } from '../../../src/providers/provider.port';

export function scriptedHttp(...answers: Partial<ProviderResponse>[]): ProviderHttp & { sent: ProviderRequest[] } {
  const sent: ProviderRequest[] = [];
  return {
    sent,
    async send(request) {
      sent.push(request);
      const a = answers.shift() ?? {};
      return { status: a.status ?? 200, headers: a.headers ?? {}, body: a.body ?? '' };
    },
  };
}
