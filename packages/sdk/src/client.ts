/**
 * The SDK's entry point: one client per base URL and token, with a typed method for every REST
 * operation of the published document (grouped by resource), `call()` for any operation by its
 * operationId, and event streams that resume by themselves.
 *
 *   const ws = new Wellstream({ baseUrl: 'http://127.0.0.1:8080/v2', token: process.env.WELLSTREAM_API_TOKEN });
 *   const user = await ws.users.get(orgId, 'patient-0001');
 *   for await (const event of ws.streams.connect(streamId)) console.log(event.type, event.data);
 */
import { ParameterError } from './errors';
import { EventStream, EventStreamOptions } from './events/event-stream';
import { OPERATIONS, OperationId } from './generated/operation-table';
import { HttpClient, HttpClientOptions, RequestOptions } from './http-client';
import type { CallParams, ResponseBody } from './operation-types';
import type { RateLimit, WithResponse } from './rate-limit';
import { Caller, operationCaller } from './resources/operation-caller';
import { Admin, Marketplace, Mobile } from './resources/operator';
import { Notifications, Rules } from './resources/notifications';
import { ReplayParams, StreamOperation, Streams } from './resources/streams';
import { Records, Users } from './resources/users';
import { Fhir } from './resources/fhir';

export type WellstreamOptions = HttpClientOptions;

export class Wellstream {
  readonly users: Users;
  readonly records: Records;
  /** The FHIR R4 read API (docs/fhir.md). */
  readonly fhir: Fhir;
  readonly streams: Streams;
  readonly notifications: Notifications;
  readonly rules: Rules;
  readonly mobile: Mobile;
  readonly marketplace: Marketplace;
  /** The operator API: only with the admin token. */
  readonly admin: Admin;
  private readonly http: HttpClient;
  private readonly caller: Caller;
  private latestRateLimit: RateLimit | null = null;

  constructor(private readonly options: WellstreamOptions) {
    this.http = new HttpClient({
      ...options,
      onResponse: (meta) => {
        if (meta.rateLimit) this.latestRateLimit = meta.rateLimit;
        options.onResponse?.(meta);
      },
    });
    this.caller = operationCaller(this.http);
    this.users = new Users(this.caller);
    this.records = new Records(this.caller);
    this.fhir = new Fhir(this.caller);
    this.streams = new Streams(this.caller, (operation, path, query, streamOptions) => this.openEventStream(operation, path, query, streamOptions));
    this.notifications = new Notifications(this.caller);
    this.rules = new Rules(this.caller);
    this.mobile = new Mobile(this.caller);
    this.marketplace = new Marketplace(this.caller);
    this.admin = new Admin(this.caller);
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  /** The rate-limit headers of the latest REST answer (each result also has `$response.rateLimit`). */
  get rateLimit(): RateLimit | null {
    return this.latestRateLimit;
  }

  /** Any REST operation by its operationId in /v2/openapi.json, e.g. `call('getUser', { path: { org_id, uid } })`. */
  call<K extends OperationId>(operationId: K, params: CallParams<K>, options?: RequestOptions): Promise<WithResponse<ResponseBody<K>>> {
    const op = OPERATIONS[operationId];
    if (!op) throw new ParameterError(`unknown operation "${String(operationId)}"`);
    if (op.eventStream) throw new ParameterError(`${String(operationId)} is an event stream: use streams.connect(), streams.tail() or streams.replay()`);
    return this.caller(operationId, params, options);
  }

  /** Same as `streams.replay(params, options)`. */
  replay(params: ReplayParams = {}, options: EventStreamOptions = {}): EventStream {
    return this.streams.replay(params, options);
  }

  private openEventStream(operation: StreamOperation, path: Record<string, string> | undefined, query: Record<string, unknown> | undefined, options: EventStreamOptions): EventStream {
    // Built now, so a missing stream id or token fails here rather than on the first iteration.
    const op = OPERATIONS[operation];
    const url = this.http.url(op, { path, query });
    const fetchImpl = this.options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
    return new EventStream({ url, fetch: fetchImpl, headers: this.http.baseHeaders(op), resumeEachPartition: operation !== 'replay' }, options);
  }
}
