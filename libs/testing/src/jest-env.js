// Quiet logs in tests unless asked for; tests that check logs capture them explicitly.
process.env.WELLSTREAM_LOG_LEVEL = process.env.WELLSTREAM_TEST_LOG_LEVEL || 'silent';
