/**
 * Values fields of the REST interface take, published in /v2/openapi.json (libs/endpoints) and
 * validated by the services: here so that both import them and neither restates them.
 */

export const RULE_TYPES = ['user/missing_data'] as const;

/** Spelled as the interface spells it ("greather_than"). */
export const COMPARATORS = ['less_than', 'greather_than', 'equal_to'] as const;

export const MAX_STREAM_NAME_LENGTH = 200;
export const STREAM_SORTS = ['-created_at', 'created_at', '-updated_at', 'updated_at'] as const;

export const USER_SORTS = ['created_at', '-created_at'] as const;
