import { usersApiSuite } from './users-api.suite';

usersApiSuite('embedded');
