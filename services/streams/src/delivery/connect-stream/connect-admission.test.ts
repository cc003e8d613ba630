import { AppError } from '@wellstream/errors';
import { ConnectAdmission } from './connect-admission';

describe('ConnectAdmission', () => {
  it('admits up to the limit, then answers 503 with a Retry-After within the range, and admits again once a place is free', () => {
    let r = 0;
    const draws = [0, 0.999, 0.5];
    const admission = new ConnectAdmission({ maxInProgress: 2, retryAfterSeconds: { min: 1, max: 5 }, random: () => draws[r++] });
    const first = admission.enter();
    admission.enter();
    const refused = (): AppError => {
      try {
        admission.enter();
      } catch (err) {
        return err as AppError;
      }
      throw new Error('admitted past the limit');
    };
    const a = refused();
    expect(a).toMatchObject({ kind: 'unavailable', code: 'STREAM_CONNECT_BUSY', retryAfterSeconds: 1 });
    expect(refused().retryAfterSeconds).toBe(5);
    expect(refused().retryAfterSeconds).toBe(3);
    first();
    expect(() => admission.enter()).not.toThrow();
  });
});
