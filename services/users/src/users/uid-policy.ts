/**
 * What a `uid` may be. The interface forbids identifying information in it, so e-mail addresses, phone
 * numbers and social security numbers are refused; detection uses maintained libraries
 * (validator's isEmail, libphonenumber-js) rather than home-made patterns, except for the SSN shape.
 * A uid also travels as a path segment, so only unreserved URL characters are allowed.
 * Names cannot be told apart from opaque ids reliably, so they are not checked (documented).
 */
import isEmail from 'validator/lib/isEmail';
import { findPhoneNumbersInText, isValidPhoneNumber, CountryCode } from 'libphonenumber-js';

export const UID_MAX_LENGTH = 128;
export const UID_ALLOWED = /^[A-Za-z0-9._~-]+$/;

/**
 * Countries whose national phone formats are also recognised (international "+" numbers are
 * recognised for every country). Countries with very short national numbers (e.g. DE, NL) are left
 * out on purpose: with them almost any 5-digit id would look like a phone number.
 */
export const PHONE_DEFAULT_COUNTRIES: CountryCode[] = ['US', 'GB', 'FR', 'IN', 'BR', 'AU'];

const SSN = /(?<!\d)\d{3}-?\d{2}-?\d{4}(?!\d)/;
const EMAIL_IN_TEXT = /[^\s@]+@[^\s@]+/g;

/** Said after the reasons, so that a developer learns the whole rule from one refusal. */
export const UID_RULE =
  `a uid is your own opaque id for the user: 1 to ${UID_MAX_LENGTH} of A-Z a-z 0-9 . _ ~ -, with no e-mail address, phone number or social security number in it ` +
  '(7 to 15 digits in a row, such as Date.now(), read as a phone number even after a prefix like "user-": use a UUID, a short counter, or Date.now().toString(36))';

/** The reasons a uid is refused followed by the rule, empty when it is acceptable. */
export function uidProblems(uid: string): string[] {
  const problems = reasons(uid);
  return problems.length ? [...problems, UID_RULE] : [];
}

function reasons(uid: string): string[] {
  if (uid.length === 0) return ['must not be empty'];
  if (uid.length > UID_MAX_LENGTH) return [`must be at most ${UID_MAX_LENGTH} characters`];
  const problems: string[] = [];
  if (looksLikeEmail(uid)) problems.push('must not contain an e-mail address (no identifying information)');
  if (looksLikePhoneNumber(uid)) problems.push('must not contain a phone number (no identifying information)');
  if (SSN.test(uid)) problems.push('must not contain a social security number (no identifying information)');
  if (!UID_ALLOWED.test(uid)) problems.push('may contain only letters, digits and . _ ~ -');
  else if (/^\.+$/.test(uid)) problems.push('must not consist of dots only');
  return problems;
}

function looksLikeEmail(uid: string): boolean {
  if (isEmail(uid)) return true;
  return (uid.match(EMAIL_IN_TEXT) ?? []).some((candidate) => isEmail(candidate));
}

function looksLikePhoneNumber(uid: string): boolean {
  // findPhoneNumbersInText finds numbers inside other text (e.g. "user+14155552671").
  for (const defaultCountry of PHONE_DEFAULT_COUNTRIES) {
    if (findPhoneNumbersInText(uid, { defaultCountry }).length > 0) return true;
  }
  // Separators the text finder does not treat as part of a number (e.g. "415.555.2671" or "415_555_2671").
  const digitsOnly = uid.replace(/[\s._~()-]/g, '');
  if (/^\+?\d{7,15}$/.test(digitsOnly)) {
    if (digitsOnly.startsWith('+') && isValidPhoneNumber(digitsOnly)) return true;
    return PHONE_DEFAULT_COUNTRIES.some((c) => isValidPhoneNumber(digitsOnly, c));
  }
  return false;
}
