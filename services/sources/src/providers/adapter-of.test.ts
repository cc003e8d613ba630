import { PROVIDERS } from '@wellstream/providers';
import { adapterOf } from './adapter-of';

describe('each provider definition has its adapter', () => {
  it.each(PROVIDERS.map((p) => [p.type, p] as const))('%s: found in its folder, agreeing with the definition', (type, definition) => {
    const adapter = adapterOf(type);
    expect(adapter.type).toBe(type);
    expect(adapter.pkce).toBe(definition.capabilities.pkce);
    expect(adapter.resources.flatMap((r) => r.recordTypes).every((t) => (definition.resources as readonly string[]).includes(t))).toBe(true);
  });
});
