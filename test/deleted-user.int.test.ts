/** The deleted-user suite (deleted-user.suite.ts) on Kafka, the MongoDB API and Redis, with streams replicas. */
import { deletedUserSuite } from './deleted-user.suite';

jest.setTimeout(300_000);

describe('a deleted user stays deleted (distributed)', () => deletedUserSuite('distributed'));
