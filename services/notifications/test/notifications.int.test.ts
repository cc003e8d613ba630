import { notificationsSuite } from './notifications.suite';

jest.setTimeout(120_000);
notificationsSuite('distributed');
