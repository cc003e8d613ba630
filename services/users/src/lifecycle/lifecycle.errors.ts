/**
 * Errors of the data lifecycle area, with stable codes (libs/http turns them into the documented bodies).
 */
import { AppError, gone, notFound, unauthenticated } from '@wellstream/errors';

export const exportNotFound = (id: string): AppError => notFound('EXPORT_NOT_FOUND', `No export "${id}" of this user.`);
export const exportLinkInvalid = (): AppError => unauthenticated('EXPORT_LINK_INVALID', 'This export link is not valid (ask the export for a new one).');
export const exportLinkExpired = (): AppError => gone('EXPORT_LINK_EXPIRED', 'This export link has expired: GET the export again for a new one.');
export const exportNotReady = (id: string): AppError => notFound('EXPORT_NOT_READY', `Export "${id}" is not ready yet.`);
