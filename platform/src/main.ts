/**
 * `npm start`: the whole platform in one process, on embedded adapters.
 */
import { ConfigError } from '@wellstream/config';
import { startPlatform } from './start-platform';

async function main() {
  const platform = await startPlatform();
  const lines = [
    '',
    `  Wellstream is running (embedded mode, data in ${process.env.WELLSTREAM_DATA_DIR ?? './data'})`,
    `  base_url:    ${platform.baseUrl}`,
    `  streams_url: ${platform.baseUrl}`,
    `  API docs:    ${platform.publicUrl}/docs`,
    `  admin token: ${platform.adminToken}${platform.adminTokenGenerated ? '   (generated; set WELLSTREAM_ADMIN_TOKEN to keep one)' : ''}`,
    '',
    `Ready: ${platform.publicUrl}/health answers {"status":"ok"}. Press Ctrl-C to stop.`,
  ];
  console.log(lines.join('\n'));
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.log('Stopping…');
    platform.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : `Failed to start: ${(err as Error).message}`);
  process.exit(1);
});
