import { refusalReason, resolveAllowed } from './address-policy';

describe('address policy', () => {
  const strict = { allowPrivate: false };
  const lenient = { allowPrivate: true };

  it.each(['169.254.169.254', '169.254.0.1', 'fe80::1', 'fd00:ec2::254', '0.0.0.0', '::', '224.0.0.1', '255.255.255.255', '100.100.100.200', '::ffff:169.254.169.254'])(
    'refuses %s always',
    (ip) => {
      expect(refusalReason(ip, lenient)).toMatch(/link-local|metadata|reserved/);
      expect(refusalReason(ip, strict)).not.toBeNull();
    },
  );

  it.each(['127.0.0.1', '10.0.0.5', '172.16.3.4', '192.168.0.1', '100.64.0.1', '::1', 'fd12::1', '::ffff:10.0.0.1'])(
    'refuses private/loopback %s unless allowed',
    (ip) => {
      expect(refusalReason(ip, strict)).toMatch(/private or loopback/);
      expect(refusalReason(ip, lenient)).toBeNull();
    },
  );

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111', '172.32.0.1'])('allows public %s', (ip) => {
    expect(refusalReason(ip, strict)).toBeNull();
  });

  it('judges every address a name resolves to, and refuses metadata names before any lookup', async () => {
    expect(await resolveAllowed('localhost', strict)).toMatchObject({ ok: false });
    expect(await resolveAllowed('localhost', lenient)).toMatchObject({ ok: true });
    expect(await resolveAllowed('[::1]', lenient)).toEqual({ ok: true, addresses: ['::1'] });
    expect(await resolveAllowed('metadata.google.internal', lenient)).toMatchObject({ ok: false, reason: expect.stringMatching(/metadata/) });
    expect(await resolveAllowed('no-such-host.invalid', lenient)).toMatchObject({ ok: false, reason: expect.stringMatching(/could not be resolved/) });
  });
});
