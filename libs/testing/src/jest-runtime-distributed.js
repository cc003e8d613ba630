// The integration project runs `*.both.test.ts` on the real servers (see test-runtime.ts). Jest
// gives each test file its own copy of process.env, so this reaches only this project's files.
process.env.WELLSTREAM_TEST_RUNTIME = 'distributed';
