import { randomBytes } from 'node:crypto';
import * as argon2 from 'argon2';
import type { PasswordHasher } from '../../application/ports/password-hasher.port.js';
import type { PlainPassword } from '../../domain/password.js';

export interface Argon2Parameters {
  readonly memoryKiB: number;
  readonly timeCost: number;
  readonly parallelism: number;
}

/** A stored hash asking for more than this is refused unverified: a tampered record cannot exhaust the host. */
export const ACCEPTED_BOUNDS = { memoryKiB: 256 * 1024, timeCost: 10, parallelism: 8 } as const;
const ARGON2ID_PHC = /^\$argon2id\$v=19\$([mtp]=\d{1,10}(?:,[mtp]=\d{1,10}){2})\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;

/** Reads m, t and p from an argon2id PHC string (in any order); null when it is not one. */
export const parametersOf = (hash: string): Argon2Parameters | null => {
  const match = ARGON2ID_PHC.exec(hash);
  if (!match?.[1]) return null;
  const values = new Map(match[1].split(',').map((pair) => [pair[0], Number(pair.slice(2))]));
  const [memoryKiB, timeCost, parallelism] = [values.get('m'), values.get('t'), values.get('p')];
  if (memoryKiB === undefined || timeCost === undefined || parallelism === undefined) return null;
  return { memoryKiB, timeCost, parallelism };
};

export const withinBounds = (p: Argon2Parameters): boolean =>
  p.memoryKiB <= ACCEPTED_BOUNDS.memoryKiB && p.timeCost <= ACCEPTED_BOUNDS.timeCost && p.parallelism <= ACCEPTED_BOUNDS.parallelism;

/** argon2id hashing (OWASP defaults m=19456 KiB, t=2, p=1), on libuv's thread pool. */
export class Argon2PasswordHasher implements PasswordHasher {
  private dummyHash: Promise<string> | undefined;
  private readonly options;

  constructor(parameters: Argon2Parameters) {
    this.options = {
      type: argon2.argon2id,
      memoryCost: parameters.memoryKiB,
      timeCost: parameters.timeCost,
      parallelism: parameters.parallelism,
    } as const;
  }

  hash(password: PlainPassword): Promise<string> {
    return argon2.hash(password.value, this.options);
  }

  async verify(hash: string, password: PlainPassword): Promise<boolean> {
    const parameters = parametersOf(hash);
    if (!parameters || !withinBounds(parameters)) return false;
    try {
      return await argon2.verify(hash, password.value);
    } catch {
      return false;
    }
  }

  async verifyDummy(password: PlainPassword): Promise<void> {
    this.dummyHash ??= argon2.hash(randomBytes(32), this.options);
    await argon2.verify(await this.dummyHash, password.value);
  }

  needsRehash(hash: string): boolean {
    if (!parametersOf(hash)) return true;
    const { memoryCost, timeCost, parallelism } = this.options;
    return argon2.needsRehash(hash, { memoryCost, timeCost, parallelism });
  }
}
