/**
 * Errors of notification targets, with stable codes.
 */
import { notFound, unprocessable } from '@wellstream/errors';

export const targetNotFound = () => notFound('TARGET_NOT_FOUND', 'No notification target is configured for this organization.');

export const targetRefused = (reason: string) => unprocessable('TARGET_REFUSED', { url: [reason] });
