import { tenantIsolationSuite } from './tenant-isolation.suite';

jest.setTimeout(60_000);
tenantIsolationSuite('embedded');
