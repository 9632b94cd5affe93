import cluster, { type Worker } from 'node:cluster';
import { ServiceUnavailable } from '../../application/errors.js';
import type { HashingAdmission } from '../../application/ports/hashing-admission.port.js';
import type { PasswordHasher } from '../../application/ports/password-hasher.port.js';
import { PlainPassword } from '../../domain/password.js';
import type { HashOperation, HashTimer } from '../metrics/timed-password-hasher.js';
import { Argon2PasswordHasher, type Argon2Parameters } from '../security/argon2-password-hasher.js';
import { ConcurrencyLimiter } from '../security/concurrency-limiter.js';
import { isMessage } from './worker.js';

const REQUEST = 'account-service:hash-request';
const ANSWER = 'account-service:hash-answer';
const FULL = 'account-service:hashing-full';

interface HashRequest {
  readonly type: typeof REQUEST;
  readonly id: number;
  readonly operation: HashOperation;
  readonly password: string;
  readonly hash?: string;
}

interface HashAnswer {
  readonly type: typeof ANSWER;
  readonly id: number;
  readonly result?: string | boolean | null;
  readonly seconds?: number;
  readonly overloaded?: boolean;
  readonly error?: string;
}

interface HashingFull {
  readonly type: typeof FULL;
  readonly full: boolean;
}

/**
 * The primary's side (WORKERS above 1): every worker's argon2id work runs here, behind one limiter of
 * HASH_CONCURRENCY hashes and HASH_QUEUE_MAX waiting, on the primary's pool (sized by src/start.cts). One queue for
 * the machine: no worker sheds while another idles, and the primary's loop, which has nothing else to do, starts the
 * next hash the moment one ends. Each worker is told when that queue fills and empties, so that its edge sheds as
 * one process's would.
 */
export function serveHashing(parameters: Argon2Parameters, concurrency: number, maxQueue: number): void {
  const hasher = new Argon2PasswordHasher(parameters);
  const limiter = new ConcurrencyLimiter(concurrency, maxQueue);
  let full = false;
  const tell = () => {
    const { running, queued } = limiter.stats();
    const now = running >= concurrency && queued >= maxQueue;
    if (now === full) return;
    full = now;
    for (const worker of Object.values(cluster.workers ?? {})) if (worker?.isConnected()) worker.send({ type: FULL, full } satisfies HashingFull);
  };
  const work = async (request: HashRequest): Promise<Omit<HashAnswer, 'type' | 'id'>> => {
    // The worker held this password as a PlainPassword, so it parses again (to the same value: NFKC is idempotent).
    const password = PlainPassword.parse(request.password);
    if (!password.ok) throw new Error('a password the worker held does not parse');
    const started = performance.now();
    const result =
      request.operation === 'hash'
        ? await hasher.hash(password.value)
        : request.operation === 'verify'
          ? await hasher.verify(request.hash ?? '', password.value)
          : await hasher.verifyDummy(password.value).then(() => null);
    return { result, seconds: (performance.now() - started) / 1000 };
  };
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isMessage<HashRequest>(message, REQUEST)) return;
    const answer = (fields: Omit<HashAnswer, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...fields } satisfies HashAnswer);
    };
    const done = limiter.run(() => work(message));
    tell();
    done
      .then(answer, (error: unknown) => answer(error instanceof ServiceUnavailable ? { overloaded: true } : { error: error instanceof Error ? error.message : String(error) }))
      .finally(tell);
  });
}

/**
 * A worker's password hasher (WORKERS above 1): argon2id runs in the primary (serveHashing), asked over the cluster's
 * channel; the time each took there, queueing excluded, goes to `timer` as it would from a TimedPasswordHasher.
 * Whether a hash needs redoing is decided here (it is pure). A refusal of the primary's full queue is shed by the
 * worker's limiter (ServiceUnavailable, answered 503, counted in account_hash_shed_total) like any shed.
 */
export class PrimaryPasswordHasher implements PasswordHasher {
  private next = 0;
  private readonly waiting = new Map<number, (answer: HashAnswer) => void>();
  private readonly local: Argon2PasswordHasher;
  private primaryFull = false;

  constructor(
    parameters: Argon2Parameters,
    private readonly timer: HashTimer,
    /** The worker's own limiter (HASH_CONCURRENCY whole, its share of HASH_QUEUE_MAX): it counts the primary's refusals too. */
    private readonly limiter: ConcurrencyLimiter,
    private readonly send: (message: HashRequest) => void = (message) => process.send?.(message),
    listen: (listener: (message: unknown) => void) => void = (listener) => void process.on('message', listener),
  ) {
    this.local = new Argon2PasswordHasher(parameters);
    listen((message) => {
      if (isMessage<HashingFull>(message, FULL)) this.primaryFull = message.full;
      if (!isMessage<HashAnswer>(message, ANSWER)) return;
      const resolve = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      resolve?.(message);
    });
  }

  /** The worker's admission: its own limiter's, and the primary's queue, full or not (as last told). */
  readonly admission: HashingAdmission = {
    admit: () => {
      if (this.primaryFull) this.limiter.shed();
      this.limiter.admit();
    },
  };

  async hash(password: PlainPassword): Promise<string> {
    return String(await this.ask('hash', password));
  }

  async verify(hash: string, password: PlainPassword): Promise<boolean> {
    return (await this.ask('verify', password, hash)) === true;
  }

  async verifyDummy(password: PlainPassword): Promise<void> {
    await this.ask('verify_dummy', password);
  }

  needsRehash(hash: string): boolean {
    return this.local.needsRehash(hash);
  }

  private async ask(operation: HashOperation, password: PlainPassword, hash?: string): Promise<HashAnswer['result']> {
    const id = this.next++;
    const answer = await new Promise<HashAnswer>((resolve) => {
      this.waiting.set(id, resolve);
      this.send({ type: REQUEST, id, operation, password: password.value, ...(hash === undefined ? {} : { hash }) });
    });
    if (answer.overloaded === true) this.limiter.shed();
    if (answer.error !== undefined) throw new Error(`password hashing failed in the primary: ${answer.error}`);
    this.timer(operation, answer.seconds ?? 0);
    return answer.result;
  }
}
