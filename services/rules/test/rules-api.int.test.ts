import { rulesApiSuite } from './rules-api.suite';

rulesApiSuite('distributed');
