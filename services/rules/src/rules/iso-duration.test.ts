/**
 * ISO 8601 duration parsing of rule windows.
 */
import { parseIsoDuration } from './iso-duration';

const S = 1000;
const H = 3600 * S;
const D = 24 * H;

describe('parseIsoDuration', () => {
  it.each([
    ['P3D', 3 * D],
    ['PT12H', 12 * H],
    ['P1W', 7 * D],
    ['PT30M', 30 * 60 * S],
    ['PT45S', 45 * S],
    ['P1DT12H', 36 * H],
    ['P1Y', 365 * D],
    ['P2M', 60 * D],
    ['PT0.5H', 30 * 60 * S],
    ['PT1,5H', 90 * 60 * S],
    ['P0D', 0],
  ])('%s is %d ms', (text, ms) => {
    expect(parseIsoDuration(text)).toEqual({ ok: true, ms });
  });

  it.each(['', 'P', 'PT', 'P1DT', '3D', 'P3', 'P-3D', 'P3d', 'p3d', 'PT1D', 'P1H', 'P1.5DT2H', 'P1D2Y', ' P3D', 'P3D ', 'PXD', 'P1.D'])(
    'rejects %j',
    (text) => {
      expect(parseIsoDuration(text).ok).toBe(false);
    },
  );
});
