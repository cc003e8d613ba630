/** The SDK's version, sent in its User-Agent; equal to package.json's (a unit test holds them together, the release script writes both). */
export const SDK_VERSION = '0.1.0';
