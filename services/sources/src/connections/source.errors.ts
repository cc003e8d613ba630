/**
 * Errors of the sources service, with stable codes; libs/http turns them into HTTP at the edge.
 */
import { AppError, badRequest, notFound, unprocessable } from '@wellstream/errors';

export const marketplaceNotFound = () => notFound('MARKETPLACE_NOT_FOUND', 'This marketplace link is not valid (it may have been replaced by a newer one).');
export const sourceNotOffered = (type: string) => notFound('SOURCE_NOT_OFFERED', `The source "${type}" is not offered here.`);
export const unknownSource = (type: string) => notFound('SOURCE_NOT_FOUND', `No source of type "${type}".`);
/** A phone source connects from the customer's app (its first record, or the app's connect), not from the marketplace. */
export const connectsFromTheApp = (type: string) => unprocessable('CONNECTS_FROM_THE_APP', { type: [`${type} connects from the app on the user's phone: its first upload, or the app's connect`] });
export const notConnected = (type: string) => notFound('SOURCE_NOT_CONNECTED', `The source "${type}" is not connected.`);
export const invalidState = () =>
  badRequest('OAUTH_STATE_INVALID', 'This sign-in link is not valid: it was altered, has expired (links last 10 minutes) or was already used. Go back to the marketplace and connect again.');
export const badCallback = (message: string) => badRequest('OAUTH_CALLBACK_INVALID', message);
export const userInactive = () => new AppError('not_found', 'USER_NOT_ACTIVE', 'This user cannot connect sources (suspended or deleted).');
