/**
 * The runtime a `*.both.test.ts` file runs on in this jest project. One file holds a suite; jest
 * runs it twice: in the component project on the embedded runtime (SQLite, in-process log) and in
 * the integration project on the real servers (Kafka, FerretDB, Redis). The project says which by
 * `WELLSTREAM_TEST_RUNTIME` (libs/testing/src/jest-runtime-*.js); unset, it is embedded.
 */
export type TestRuntime = 'embedded' | 'distributed';

export function testRuntime(): TestRuntime {
  const value = process.env.WELLSTREAM_TEST_RUNTIME ?? 'embedded';
  if (value !== 'embedded' && value !== 'distributed') throw new Error(`WELLSTREAM_TEST_RUNTIME must be embedded or distributed, not ${value}`);
  return value;
}

/** Picks the value for the runtime this run is on (a timeout, a store factory). */
export function byRuntime<T>(values: Record<TestRuntime, T>): T {
  return values[testRuntime()];
}
