/**
 * The token vault's cipher: provider tokens are stored encrypted with AES-256-GCM under a key from
 * config. WELLSTREAM_SOURCE_TOKEN_KEY holds one key, or `new,old` while rotating: new values are
 * sealed with the first, and a value sealed with any listed key opens (each sealed value names
 * its key by a short fingerprint). A value under an old key is sealed again on its next write
 * (every refresh), and `needsReseal` lets a sweep do it sooner.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

interface Key {
  id: string;
  bytes: Buffer;
}

export class TokenVault {
  private readonly keys: Key[];

  constructor(keyList: string) {
    this.keys = keyList
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean)
      .map((k) => {
        // Any string of 32+ characters becomes 32 key bytes; the id never reveals the key.
        const bytes = createHash('sha256').update(k).digest();
        return { id: createHash('sha256').update(bytes).digest('hex').slice(0, 8), bytes };
      });
    if (this.keys.length === 0) throw new Error('the token vault needs at least one key');
  }

  seal(plain: string): string {
    const key = this.keys[0];
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key.bytes, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', key.id, iv.toString('base64url'), data.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, keyId, iv, data, tag] = sealed.split('.');
    const key = this.keys.find((k) => k.id === keyId);
    if (version !== 'v1' || !key || !iv || data === undefined || !tag) throw new Error('sealed value under an unknown key or format');
    const decipher = createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }

  needsReseal(sealed: string): boolean {
    return sealed.split('.')[1] !== this.keys[0].id;
  }

  /** A keyed MAC with the vault's current key (signed OAuth states, webhook verification tokens). */
  mac(purpose: string, value: string): string {
    return createHash('sha256').update(this.keys[0].bytes).update(`\0${purpose}\0${value}`).digest('base64url');
  }

  /** The MAC under every listed key (a state signed before a rotation still verifies). */
  macs(purpose: string, value: string): string[] {
    return this.keys.map((k) => createHash('sha256').update(k.bytes).update(`\0${purpose}\0${value}`).digest('base64url'));
  }
}
