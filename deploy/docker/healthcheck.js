'use strict';
// Container health check: GET /health on this container's own port (WELLSTREAM_PORT for the gateway
// and the edge; else WELLSTREAM_SERVICE_PORT). Exit 0 on 200, 1 otherwise. Node builtins only.
const fs = require('fs');
const main = fs.realpathSync('/app/main.js');
const listensOnPublicPort = main.startsWith('/app/gateway/') || main.startsWith('/app/edge/');
const port = listensOnPublicPort ? process.env.WELLSTREAM_PORT || '8080' : process.env.WELLSTREAM_SERVICE_PORT || '3000';
fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2500) })
  .then((res) => process.exit(res.status === 200 ? 0 : 1))
  .catch(() => process.exit(1));
