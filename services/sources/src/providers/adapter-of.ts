/**
 * Each provider's adapter is found from its definition (libs/providers): the module
 * `<type>/<type>.adapter` of this folder, exporting the adapter whose `type` is the definition's.
 * So the adapters are never listed by hand: a provider's folder and its definition are the whole
 * of adding it. Loaded once per type, at start; a definition without its adapter fails the start.
 */
import type { ProviderType } from './provider-defaults';
import type { ProviderAdapter } from './provider.port';

const loaded = new Map<string, ProviderAdapter>();

const isAdapterOf = (type: string, v: unknown): v is ProviderAdapter =>
  typeof v === 'object' && v !== null && (v as ProviderAdapter).type === type && typeof (v as ProviderAdapter).authorizeUrl === 'function';

export function adapterOf(type: ProviderType): ProviderAdapter {
  const known = loaded.get(type);
  if (known) return known;
  const exports = require(`./${type}/${type}.adapter`) as Record<string, unknown>;
  const adapter = Object.values(exports).find((v) => isAdapterOf(type, v));
  if (!adapter) throw new Error(`providers/${type}/${type}.adapter exports no adapter of type ${type}`);
  loaded.set(type, adapter);
  return adapter;
}
