// The unit and component projects run `*.both.test.ts` on the embedded runtime (see test-runtime.ts).
process.env.WELLSTREAM_TEST_RUNTIME = 'embedded';
