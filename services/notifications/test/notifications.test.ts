import { notificationsSuite } from './notifications.suite';

jest.setTimeout(60_000);
notificationsSuite('embedded');
