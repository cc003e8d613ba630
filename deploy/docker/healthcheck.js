'use strict';
// Container health check: GET /health on this container's own port (the gateway's WELLSTREAM_PORT
// when SERVICE=gateway, also for the edge, which runs from that image; else WELLSTREAM_SERVICE_PORT). Exit 0 on 200, 1 otherwise. Node builtins only.
const fs = require('fs');
const isGateway = fs.realpathSync('/app/main.js').startsWith('/app/gateway/');
const port = isGateway ? process.env.WELLSTREAM_PORT || '8080' : process.env.WELLSTREAM_SERVICE_PORT || '3000';
fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2500) })
  .then((res) => process.exit(res.status === 200 ? 0 : 1))
  .catch(() => process.exit(1));
