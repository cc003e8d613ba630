/**
 * Signature secrets a provider hands out once, when an app subscription is created (Polar): kept
 * sealed, one document per provider (every notification of that provider reads it by key).
 */
import type { Collection, DocumentStore } from '@wellstream/store';
import type { TokenVault } from '../vault/token-vault';

interface SecretsDoc {
  _id: string;
  /** Sealed secrets by subscription id, newest first when read. */
  secrets: { subscription_id: string; sealed: string; created_at: string }[];
}

export class AppSubscriptionSecrets {
  private constructor(
    private readonly docs: Collection<SecretsDoc>,
    private readonly vault: TokenVault,
  ) {}

  static async open(store: DocumentStore, vault: TokenVault): Promise<AppSubscriptionSecrets> {
    return new AppSubscriptionSecrets(await store.collection<SecretsDoc>({ name: 'app_subscription_secrets' }), vault);
  }

  async of(type: string): Promise<string[]> {
    const doc = await this.docs.findOne({ _id: type });
    return (doc?.secrets ?? [])
      .slice()
      .sort((a, b) => (a.created_at < b.created_at ? 1 : -1))
      .map((s) => this.vault.open(s.sealed));
  }

  /** The subscriptions we hold a secret for. */
  async ids(type: string): Promise<string[]> {
    return ((await this.docs.findOne({ _id: type }))?.secrets ?? []).map((s) => s.subscription_id);
  }

  async add(type: string, subscriptionId: string, secret: string, at: Date): Promise<void> {
    const doc = (await this.docs.findOne({ _id: type })) ?? { _id: type, secrets: [] };
    const secrets = doc.secrets.filter((s) => s.subscription_id !== subscriptionId);
    secrets.push({ subscription_id: subscriptionId, sealed: this.vault.seal(secret), created_at: at.toISOString() });
    await this.docs.bulkUpsert([{ _id: type, secrets }]);
  }

  async remove(type: string, subscriptionId: string): Promise<void> {
    const doc = await this.docs.findOne({ _id: type });
    if (doc) await this.docs.bulkUpsert([{ _id: type, secrets: doc.secrets.filter((s) => s.subscription_id !== subscriptionId) }]);
  }
}
