/**
 * Errors of the stream resources, with stable codes.
 */
import { AppError, conflict, notFound, unprocessable } from '@wellstream/errors';

export const streamNotFound = (id: string) => notFound('STREAM_NOT_FOUND', `Stream ${id} not found.`);

export const streamNameTaken = (name: string) =>
  unprocessable('STREAM_NAME_TAKEN', { name: [`A stream named "${name}" already exists.`] });

export const tooManyStreams = (max: number) =>
  unprocessable('TOO_MANY_STREAMS', { streams: [`A customer can have at most ${max} streams; delete one first.`] });

export const streamHasClients = (members: number) =>
  conflict('STREAM_HAS_CLIENTS', `The stream cannot be deleted while clients are connected (${members} connected).`);

export const tooManyMembers = (max: number, retryAfterSeconds: number) =>
  new AppError('unprocessable', 'TOO_MANY_MEMBERS', `The stream already has the maximum of ${max} connected clients; retry when one disconnects.`, {
    retryAfterSeconds,
  });
