/**
 * Errors of the user area, with stable codes. libs/http turns them into the documented error bodies.
 */
import { AppError, notFound, unauthenticated, unprocessable } from '@wellstream/errors';

export const userNotFound = (uid: string): AppError => notFound('USER_NOT_FOUND', `No user with uid "${uid}" in this organization.`);

export const uidTaken = (): AppError => unprocessable('UID_TAKEN', { uid: ['already exists'] });

export const marketplaceNotFound = (): AppError =>
  notFound('MARKETPLACE_NOT_FOUND', 'This marketplace link is not valid (it may have been replaced by a newer one).');

export const adminOnly = (): AppError => unauthenticated('ADMIN_ONLY', 'This endpoint needs the operator token.');



