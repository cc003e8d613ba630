import { mobileTokenFreshnessSuite } from './mobile-token-freshness.suite';

mobileTokenFreshnessSuite('distributed');
