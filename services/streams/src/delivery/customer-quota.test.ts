import { CustomerQuota } from './customer-quota';

describe('CustomerQuota', () => {
  const quota = () => new CustomerQuota({ stream: 2, replay: 1, tail: 1, retryAfterSeconds: 5 });

  it('refuses the slot past the limit with a 429-kind error and Retry-After, per customer and kind', () => {
    const q = quota();
    const release = q.acquire('cus_a', 'replay');
    expect(() => q.acquire('cus_a', 'replay')).toThrow(expect.objectContaining({ kind: 'rate_limited', code: 'TOO_MANY_REPLAYS', retryAfterSeconds: 5 }));
    expect(() => q.acquire('cus_b', 'replay')).not.toThrow();
    q.acquire('cus_a', 'stream');
    q.acquire('cus_a', 'stream');
    expect(() => q.acquire('cus_a', 'stream')).toThrow(expect.objectContaining({ code: 'TOO_MANY_STREAM_CONNECTIONS' }));
    release();
    release();
    expect(q.active('cus_a', 'replay')).toBe(0);
    expect(() => q.acquire('cus_a', 'replay')).not.toThrow();
  });
});
