import type { PasswordHasher } from '../../application/ports/password-hasher.port.js';
import type { PlainPassword } from '../../domain/password.js';
import type { ConcurrencyLimiter } from './concurrency-limiter.js';

/** Puts every expensive hasher operation behind one ConcurrencyLimiter (bounded work, bounded queue). */
export class BoundedPasswordHasher implements PasswordHasher {
  constructor(
    private readonly inner: PasswordHasher,
    private readonly limiter: ConcurrencyLimiter,
  ) {}

  hash(password: PlainPassword): Promise<string> {
    return this.limiter.run(() => this.inner.hash(password));
  }

  verify(hash: string, password: PlainPassword): Promise<boolean> {
    return this.limiter.run(() => this.inner.verify(hash, password));
  }

  verifyDummy(password: PlainPassword): Promise<void> {
    return this.limiter.run(() => this.inner.verifyDummy(password));
  }

  needsRehash(hash: string): boolean {
    return this.inner.needsRehash(hash);
  }
}
