import { dictionary } from '@zxcvbn-ts/language-common';
import type { PasswordBlocklist } from '../../application/ports/password-blocklist.port.js';
import type { PlainPassword } from '../../domain/password.js';

const fold = (text: string): string => text.normalize('NFKC').toLowerCase();

/** The ~49,000 most common passwords shipped by @zxcvbn-ts/language-common, loaded once into a set. */
export class ZxcvbnPasswordBlocklist implements PasswordBlocklist {
  private readonly common: ReadonlySet<string>;

  constructor(words: readonly string[] = dictionary['passwords-common']) {
    this.common = new Set(words.map(fold));
  }

  get size(): number {
    return this.common.size;
  }

  isCommon(password: PlainPassword): boolean {
    return this.common.has(fold(password.value));
  }
}
