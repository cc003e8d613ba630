/** The users endpoints' paths (services receive the full /v2 path from the gateway). */
export const USERS_PATH = '/v2/organizations/:orgId/users';
export const USER_PATH = `${USERS_PATH}/:uid`;
