// Quiet logs in tests unless asked for; tests that check logs capture them explicitly. The level
// reaches the logger the way it does in a deployment: services apply their validated configuration
// (which reads this variable), and loggers used without a service start from this setting.
process.env.WELLSTREAM_LOG_LEVEL = process.env.WELLSTREAM_TEST_LOG_LEVEL || 'silent';
require('@wellstream/logging').setLogLevel(process.env.WELLSTREAM_LOG_LEVEL);
