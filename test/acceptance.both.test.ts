/**
 * The customer journey (acceptance.suite.ts) and the bad-input probes (bad-input.suite.ts) on this
 * run's runtime. The suites stay apart because the container tests run them too, against the
 * platform from docker-compose.yml.
 */
import { byRuntime, testRuntime } from '@wellstream/testing';
import { acceptanceSuite } from './acceptance.suite';
import { badInputSuite } from './bad-input.suite';

jest.setTimeout(byRuntime({ embedded: 60_000, distributed: 120_000 }));
acceptanceSuite(testRuntime());
badInputSuite(testRuntime());
