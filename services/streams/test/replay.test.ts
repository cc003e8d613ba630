import { replaySuite } from './replay.suite';

replaySuite('embedded');
