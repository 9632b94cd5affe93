import { performance } from 'node:perf_hooks';
import type { PasswordHasher } from '../../application/ports/password-hasher.port.js';
import type { PlainPassword } from '../../domain/password.js';

export type HashOperation = 'hash' | 'verify' | 'verify_dummy';

/** Receives how long one hasher operation took, whether it succeeded or threw. */
export type HashTimer = (operation: HashOperation, seconds: number) => void;

/** Times each operation of the hasher it wraps; put it inside the limiter so it measures work, not queueing. */
export class TimedPasswordHasher implements PasswordHasher {
  constructor(
    private readonly inner: PasswordHasher,
    private readonly timer: HashTimer,
  ) {}

  hash(password: PlainPassword): Promise<string> {
    return this.timed('hash', () => this.inner.hash(password));
  }

  verify(hash: string, password: PlainPassword): Promise<boolean> {
    return this.timed('verify', () => this.inner.verify(hash, password));
  }

  verifyDummy(password: PlainPassword): Promise<void> {
    return this.timed('verify_dummy', () => this.inner.verifyDummy(password));
  }

  needsRehash(hash: string): boolean {
    return this.inner.needsRehash(hash);
  }

  private async timed<T>(operation: HashOperation, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.timer(operation, (performance.now() - started) / 1000);
    }
  }
}
