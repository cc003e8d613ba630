/**
 * Errors of the rules feature, with stable codes.
 */
import { notFound, unprocessable } from '@wellstream/errors';

export const FEATURE_DISABLED_MESSAGE = 'the rules feature is disabled';

/**
 * The OpenAPI document lists no 403, so a disabled feature is a 422 with the list body: the request
 * is well formed but cannot be processed for this organization.
 */
export const rulesFeatureDisabled = () => unprocessable('RULES_DISABLED', FEATURE_DISABLED_MESSAGE);

export const userNotFound = (uid: string) => notFound('USER_NOT_FOUND', `No user found for uid ${uid}.`);

export const userSuspended = (uid: string) => unprocessable('USER_SUSPENDED', `The user ${uid} is suspended; suspended users have no rules.`);

export const ruleNotFound = (id: string) => notFound('RULE_NOT_FOUND', `No rule found for id ${id}.`);
