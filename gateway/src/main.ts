/**
 * Distributed entry point: the gateway alone (node gateway/dist/main.js).
 */
import { runServiceMain } from '@wellstream/runtime';
import { composeGateway } from './compose';
import { loadGatewayConfig } from './config';

runServiceMain('gateway', async () => {
  const gw = await composeGateway(loadGatewayConfig());
  if (gw.adminTokenGenerated) console.log(`Admin token: ${gw.adminToken}`);
  return gw;
});
