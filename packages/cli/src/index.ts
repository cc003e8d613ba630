/** The CLI as a library: `runCli(argv, io)` (what the `wellstream` executable runs), for embedding and tests. */
export { runCli } from './program';
export type { CliIo } from './cli-io';
export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './cli-io';
