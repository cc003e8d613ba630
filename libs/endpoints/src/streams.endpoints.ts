/** The streams service: stream resources, their SSE connection and the 30-day replay. */
import { endpoints } from './endpoint';

const developer = { auth: 'developer' } as const;

export const streamsEndpoints = endpoints('streams', [
  { operationId: 'listStreams', method: 'get', path: '/streams', ...developer },
  { operationId: 'createStream', method: 'post', path: '/streams', ...developer },
  { operationId: 'getStream', method: 'get', path: '/streams/{id}', ...developer },
  { operationId: 'renameStream', method: 'put', path: '/streams/{id}', ...developer },
  { operationId: 'deleteStream', method: 'delete', path: '/streams/{id}', ...developer },
  { operationId: 'connectStream', method: 'get', path: '/streams/{id}/connect', ...developer },
  { operationId: 'replay', method: 'get', path: '/replay', ...developer },
]);
