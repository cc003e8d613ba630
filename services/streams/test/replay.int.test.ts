import { replaySuite } from './replay.suite';

replaySuite('distributed');
