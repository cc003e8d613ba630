/** The CLI's version (`wellstream --version`); equal to package.json's (a unit test holds them together, the release script writes both). */
export const CLI_VERSION = '0.1.0';
