import { captureLogs, createLogger, setLogLevel } from './logger';

describe('logger levels', () => {
  afterEach(() => setLogLevel('silent'));

  it('builds no line below the level (its fields are never read) and writes those at or above it', () => {
    setLogLevel('warn');
    setLogLevel('silent'); // the console only: the level stays warn, and the capture below reads
    const lines: string[] = [];
    const stop = captureLogs((l) => lines.push(l));
    let read = 0;
    const fields = {
      get costly() {
        read++;
        return 'x';
      },
    };
    const log = createLogger('test').child({ part: 'levels' });
    log.info('below the level', fields);
    log.debug('below the level', fields);
    expect(read).toBe(0);
    log.warn('at the level', { n: 1 });
    log.error('above it', { n: 2 });
    stop();
    expect(lines.map((l) => JSON.parse(l).message)).toEqual(['at the level', 'above it']);
    expect(JSON.parse(lines[0])).toMatchObject({ service: 'test', part: 'levels', level: 'warn', n: 1 });
  });

  it("'silent' mutes the console only: a capture still sees info lines", () => {
    setLogLevel('info');
    setLogLevel('silent');
    const lines: string[] = [];
    const stop = captureLogs((l) => lines.push(l));
    createLogger('test').info('seen by the capture');
    stop();
    expect(lines.map((l) => JSON.parse(l).message)).toEqual(['seen by the capture']);
    expect(createLogger('test').silent).toBe(true);
  });
});
