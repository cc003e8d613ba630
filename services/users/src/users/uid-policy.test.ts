import { uidProblems } from './uid-policy';

describe('uid policy', () => {
  it.each(['user-0001', 'a', 'A.b_c~d-e', 'acct-2024-0001', '550e8400-e29b-41d4-a716-446655440000', 'x'.repeat(128), 'user_00001'])(
    'accepts %s',
    (uid) => expect(uidProblems(uid)).toEqual([]),
  );

  it.each([
    ['jane.doe@example.com', /e-mail/],
    ['user+jane@example.org', /e-mail/],
    ['+14155552671', /phone/],
    ['415-555-2671', /phone/],
    ['4155552671', /phone/],
    ['+44 20 7946 0958', /phone/],
    ['020.7946.0958', /phone/],
    ['123-45-6789', /social security/],
    ['ssn_123456789', /social security/],
    ['', /empty/],
    ['x'.repeat(129), /at most 128/],
    ['a/b', /letters, digits/],
    ['a b', /letters, digits/],
    ['..', /dots/],
  ])('refuses %s', (uid, reason) => {
    const problems = uidProblems(uid);
    expect(problems.join(' ')).toMatch(reason);
  });

  it('explains what a uid may be whenever one is refused', () => {
    const problems = uidProblems(String(1764262800123));
    expect(problems.join(' ')).toMatch(/phone/);
    expect(problems[problems.length - 1]).toMatch(/^a uid is your own opaque id for the user: 1 to 128 of A-Z a-z 0-9 \. _ ~ -.*Date\.now\(\)/);
    expect(uidProblems('user-0001')).toEqual([]);
  });
});
