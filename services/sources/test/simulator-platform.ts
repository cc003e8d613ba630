/**
 * The set-up every provider-against-simulator suite shares: the provider's simulator, the whole
 * platform configured for it (on this run's runtime), a tenant, a recorder of the `events` topic,
 * and what a user does there: be created, connect through the marketplace and the provider's
 * consent, be read back. `restart()` stops the platform and starts it again on the same data, as
 * a deployment does; `platform`, `tenant` and `events` then name the new ones.
 */
import { ApiClient, createTenant, EventRecorder, recordTopic, Tenant } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import type { ProviderSimulator, SimulatedUser } from './simulators/provider-simulator';

export interface NewUser {
  id: string;
  uid: string;
  marketplace: { url: string };
}

export interface SimulatorPlatformOptions {
  mode: 'embedded' | 'distributed';
  /** The platform's configuration beyond the simulator's own (`sim.env()`). */
  env: NodeJS.ProcessEnv;
  /** Names the platform's data directory and servers in logs. */
  label: string;
}

export class SimulatorPlatform {
  platform!: TestPlatform;
  tenant!: Tenant;
  events!: EventRecorder<any>;
  /** The environment the platform was started with (the simulator's, the options', the test servers'). */
  env!: NodeJS.ProcessEnv;

  constructor(
    readonly sim: ProviderSimulator,
    private readonly o: SimulatorPlatformOptions,
  ) {}

  get baseUrl(): string {
    return this.platform.baseUrl;
  }

  async newUser(label: string): Promise<NewUser> {
    const res = await this.tenant.api.post(`/organizations/${this.tenant.organizationId}/users`, { uid: `${label}-${Date.now().toString(36)}`, location: { timezone: 'Europe/Berlin' } });
    expect(res.status).toBe(201);
    return res.body as NewUser;
  }

  async getUser(uid: string): Promise<any> {
    return (await this.tenant.api.get(`/organizations/${this.tenant.organizationId}/users/${uid}`)).body;
  }

  /** The user's `sources` entry for this simulator's provider, if any. */
  async sourceOf(uid: string): Promise<any> {
    return ((await this.getUser(uid)).sources as any[]).find((s) => s.type === this.sim.type);
  }

  /**
   * Connect (or reconnect) through the marketplace and the provider's consent: the marketplace
   * answers 303 to the provider's authorize URL with what OAuth asks for, the consent sends the
   * browser to our callback, which answers 303. Returns where the browser ends.
   */
  async connect(marketplaceUrl: string, who: SimulatedUser, action = 'connect', decision: 'allow' | 'deny' = 'allow'): Promise<string> {
    const start = await fetch(`${marketplaceUrl}/sources/${this.sim.type}/${action}`, { method: 'POST', redirect: 'manual' });
    expect(start.status).toBe(303);
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.searchParams.get('response_type')).toBe('code');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${this.platform.baseUrl}/sources/${this.sim.type}/callback`);
    expect(authorize.searchParams.get('state')).toBeTruthy();
    const back = await fetch(this.sim.authorize(authorize.toString(), who, decision), { redirect: 'manual' });
    expect(back.status).toBe(303);
    return back.headers.get('location')!;
  }

  async start(): Promise<void> {
    await this.sim.start();
    this.platform = await startTestPlatform({ mode: this.o.mode, env: { ...this.sim.env(), ...this.o.env }, label: this.o.label });
    this.env = this.platform.env;
    this.tenant = await createTenant(this.platform.baseUrl);
    this.events = await recordTopic(this.platform.eventLog, 'events');
  }

  /** Stops the platform and starts it again on the same data (the tenant and its token stay). */
  async restart(beforeStart?: () => void): Promise<void> {
    await this.platform.stop();
    beforeStart?.();
    this.platform = await startTestPlatform({ mode: this.o.mode, env: this.env, dataDir: this.platform.dataDir, label: this.o.label });
    this.tenant = { ...this.tenant, api: new ApiClient(this.platform.baseUrl, this.tenant.token) };
    await this.events.stop();
    this.events = await recordTopic(this.platform.eventLog, 'events');
  }

  async stop(): Promise<void> {
    await this.events?.stop();
    await this.platform?.stop();
    await this.sim.stop();
  }
}

/** Starts the simulator and the platform configured for it; stop it in afterAll. */
export async function startSimulatorPlatform(sim: ProviderSimulator, o: SimulatorPlatformOptions): Promise<SimulatorPlatform> {
  const fixture = new SimulatorPlatform(sim, o);
  try {
    await fixture.start();
  } catch (err) {
    // Whatever did start stops: afterAll never sees a fixture that was not returned.
    await fixture.stop().catch(() => undefined);
    throw err;
  }
  return fixture;
}
