/** The operator token every test platform is started with (startTestPlatform, startProcessPlatform). */
export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
