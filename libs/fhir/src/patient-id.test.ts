import { hashedPatientId, patientIdOf, uidOfPatientId } from './patient-id';

const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;

describe('patientIdOf / uidOfPatientId', () => {
  it('keeps a uid of letters, digits and hyphens as it is', () => {
    expect(patientIdOf('patient-0001')).toBe('patient-0001');
    expect(uidOfPatientId('patient-0001')).toEqual({ uid: 'patient-0001' });
  });

  it.each([
    ['a.b', 'a.2Eb'],
    ['user_42', 'user.5F42'],
    ['', '.'],
    ['a/b c', 'a.2Fb.20c'],
    ['Zoë', 'Zo.C3.AB'],
  ])('escapes %j reversibly as %j', (uid, id) => {
    expect(patientIdOf(uid)).toBe(id);
    expect(id).toMatch(FHIR_ID);
    expect(uidOfPatientId(id)).toEqual({ uid });
  });

  it('round-trips every kind of uid into a valid FHIR id', () => {
    const uids = ['x', 'X-1', '.', '..', '%41', 'a'.repeat(64), 'a'.repeat(65), '日本', 'emoji-😀', 'tab\there', '-', 'a.2Eb'];
    for (const uid of uids) {
      const id = patientIdOf(uid);
      expect(id).toMatch(FHIR_ID);
      const back = uidOfPatientId(id);
      if (back && 'uid' in back) expect(back.uid).toBe(uid);
      else expect(back).toEqual({ hashed: hashedPatientId(uid) });
    }
  });

  it('names a uid too long to escape by its hash, still a valid id', () => {
    const uid = `${'é'.repeat(30)}`;
    const id = patientIdOf(uid);
    expect(id).toBe(hashedPatientId(uid));
    expect(id).toMatch(FHIR_ID);
    expect(uidOfPatientId(id)).toEqual({ hashed: id });
  });

  it('decodes only ids the encoding produces', () => {
    expect(uidOfPatientId('a.41')).toBeUndefined(); // an escaped letter is not canonical
    expect(uidOfPatientId('a.4')).toBeUndefined();
    expect(uidOfPatientId('a.zz')).toBeUndefined();
    expect(uidOfPatientId('a_b')).toBeUndefined();
    expect(uidOfPatientId('.FF')).toBeUndefined(); // not UTF-8
    expect(uidOfPatientId('a'.repeat(65))).toBeUndefined();
  });
});
