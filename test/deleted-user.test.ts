/** The deleted-user suite (deleted-user.suite.ts) on the embedded runtime. */
import { deletedUserSuite } from './deleted-user.suite';

jest.setTimeout(180_000);

describe('a deleted user stays deleted (embedded)', () => deletedUserSuite('embedded'));
