import { streamDeliverySuite } from './stream-delivery.suite';

streamDeliverySuite('embedded');
