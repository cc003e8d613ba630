/** clearOfTheHourTurn: no wait with enough of the hour left, else a wait until just after the turn. */
import { clearOfTheHourTurn } from '../src';

const HOUR = 3_600_000;
const at = (msIntoHour: number) => () => 490_000 * HOUR + msIntoHour;

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

async function settledAfter(ms: number, waiting: Promise<void>): Promise<boolean> {
  let done = false;
  void waiting.then(() => (done = true));
  await jest.advanceTimersByTimeAsync(ms);
  return done;
}

it('resolves at once when enough of the hour is left', async () => {
  expect(await settledAfter(0, clearOfTheHourTurn(20_000, at(HOUR - 20_000)))).toBe(true);
});

it('waits until just after the hour turns when too little is left', async () => {
  const waiting = clearOfTheHourTurn(20_000, at(HOUR - 100));
  expect(await settledAfter(149, waiting)).toBe(false);
  expect(await settledAfter(1, waiting)).toBe(true);
});
