/**
 * Errors of the records area, with stable codes.
 */
import { badRequest, FieldErrors, notFound, unauthenticated, unprocessable } from '@wellstream/errors';

export { invalidRecords } from '@wellstream/contracts';
export const invalidMobileToken = () => unauthenticated('INVALID_MOBILE_TOKEN', 'Invalid or missing mobile token.');
export const userSuspended = () => unprocessable('USER_SUSPENDED', { user: ['user is suspended'] });
export const userNotFound = (uid: string) => notFound('USER_NOT_FOUND', `No user with uid ${uid} in this organization.`);
export const invalidQuery = (fields: FieldErrors) => badRequest('INVALID_QUERY', fields);
export const unknownSource = (names: string[]) => unprocessable('UNKNOWN_SOURCE', { type: [`unknown source: ${names.join(', ')}`] });
