import { streamDeliverySuite } from './stream-delivery.suite';

streamDeliverySuite('distributed');
