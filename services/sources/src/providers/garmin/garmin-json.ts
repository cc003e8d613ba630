/** Garmin's answers read defensively (the kit's guards, naming Garmin). */
import { jsonReader } from '../kit/json-reading';

export type { Json } from '../kit/json-reading';
export const { badResponse, parseJson, requireArray, requireObject, requireString, optionalNumber, optionalString, optionalObject } = jsonReader('Garmin');
