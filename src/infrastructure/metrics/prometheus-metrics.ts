import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { LimiterStats } from '../security/concurrency-limiter.js';
import type { HashOperation } from './timed-password-hasher.js';

export interface RequestSample {
  readonly route: string;
  readonly method: string;
  readonly status: number;
  readonly durationSeconds: number;
}

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const HASH_BUCKETS = [0.005, 0.01, 0.02, 0.035, 0.05, 0.075, 0.1, 0.2, 0.5, 1, 2];

/**
 * Every metric of one service instance, in its own registry (several instances can share a process):
 * default process metrics, HTTP durations, sign-up and sign-in outcomes, argon2 durations, the hash queue. In a
 * worker of several (WORKERS), GET /metrics renders every worker's, added up; what the workers share (the store,
 * the outbox, the mail relay) is a gauge each worker reads alike, so it is aggregated by max (the relay by min).
 */
export class PrometheusMetrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'route' | 'method' | 'status'>;
  private readonly outcomes: Record<string, Counter<'outcome'>> = {};
  private readonly hashDuration: Histogram<'operation'>;
  private readonly mailDeadLetters: Counter;
  private readonly mailRelayUp: Gauge;
  private readonly mailRelayFailures: Counter;
  private rateLimitStoreUp: Gauge | undefined;
  private readonly ofEveryWorker: (() => Promise<string>) | undefined;

  /**
   * `ofEveryWorker`, given this registry, answers what GET /metrics renders when the process is one worker of several
   * (cluster/cluster-metrics.ts); undefined, or answering undefined: this registry alone.
   */
  constructor(hashLimiter: { stats(): LimiterStats }, ofEveryWorker?: (registry: Registry) => (() => Promise<string>) | undefined) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route pattern, method and status',
      labelNames: ['route', 'method', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.hashDuration = new Histogram({
      name: 'account_password_hash_duration_seconds',
      help: 'argon2id work per operation (hash, verify, verify_dummy), excluding time queued',
      labelNames: ['operation'],
      buckets: HASH_BUCKETS,
      registers,
    });
    this.mailDeadLetters = new Counter({
      name: 'account_mail_dead_letters_total',
      help: 'Mails given up (too many failed deliveries, or refused for good by the SMTP server) and kept for an operator',
      registers,
    });
    this.mailRelayUp = new Gauge({
      name: 'account_mail_relay_up',
      help: '0 while the SMTP relay fails before any mail (connection, greeting, TLS, authentication) and no mail goes through; 1 otherwise',
      registers,
      aggregator: 'min',
    });
    this.mailRelayUp.set(1);
    this.mailRelayFailures = new Counter({
      name: 'account_mail_relay_failures_total',
      help: 'Dispatcher runs in which the SMTP relay failed before any mail and none went through (the mails wait; none is given up for it)',
      registers,
    });
    new Gauge({
      name: 'account_hash_queue_depth',
      help: 'argon2 operations waiting for a hashing slot',
      registers,
      collect() {
        this.set(hashLimiter.stats().queued);
      },
    });
    new Gauge({
      name: 'account_hash_in_flight',
      help: 'argon2 operations running now',
      registers,
      collect() {
        this.set(hashLimiter.stats().running);
      },
    });
    new Counter({
      name: 'account_hash_shed_total',
      help: 'argon2 operations refused because the hash queue was full (answered 503)',
      registers,
      collect() {
        this.reset();
        this.inc(hashLimiter.stats().shed);
      },
    });
    this.ofEveryWorker = ofEveryWorker?.(this.registry);
  }

  /** Publishes the store's size on disk and the free space beside it (the embedded store; null values are left out). */
  observeStore(sizes: () => { readonly sizeBytes: number | null; readonly freeBytes: number | null }): void {
    const registers = [this.registry];
    new Gauge({
      name: 'account_store_size_bytes',
      help: 'Size of the embedded store on disk (DATA_DIR/accounts.lmdb)',
      registers,
      aggregator: 'max',
      collect() {
        const { sizeBytes } = sizes();
        if (sizeBytes !== null) this.set(sizeBytes);
      },
    });
    new Gauge({
      name: 'account_store_free_disk_bytes',
      help: 'Free space on the filesystem of DATA_DIR (readiness fails below MIN_FREE_DISK_BYTES)',
      registers,
      aggregator: 'max',
      collect() {
        const { freeBytes } = sizes();
        if (freeBytes !== null) this.set(freeBytes);
      },
    });
  }

  /** Publishes how many mails wait in the outbox (read at each scrape; left out when the store cannot say). */
  observeOutbox(pendingCount: () => Promise<number>): void {
    new Gauge({
      name: 'account_mail_pending',
      help: 'Mails waiting in the outbox to be sent (due, leased or backing off; dead letters excluded)',
      registers: [this.registry],
      aggregator: 'max',
      async collect() {
        const pending = await pendingCount().catch(() => null);
        if (pending !== null) this.set(pending);
      },
    });
  }


  /** Whether the per-client limits' shared store (Redis) answers: 0 while it does not (the limits then let requests through). */
  readonly rateLimitStoreState = (up: boolean): void => {
    (this.rateLimitStoreUp ??= new Gauge({ name: 'account_rate_limit_store_up', help: '0 while RATE_LIMIT_STORE=redis is unreachable (per-client limits fail open); 1 otherwise', registers: [this.registry] })).set(up ? 1 : 0);
  };

  /** With RATE_LIMIT_STORE=redis: the gauge above from the start (1), before any change of state. */
  readonly observeRateLimitStore = (): void => this.rateLimitStoreState(true);

  readonly mailDeadLettered = (): void => {
    this.mailDeadLetters.inc();
  };

  readonly mailRelayState = (up: boolean): void => {
    this.mailRelayUp.set(up ? 1 : 0);
    if (!up) this.mailRelayFailures.inc();
  };

  get contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.ofEveryWorker?.() ?? this.registry.metrics();
  }

  requestCompleted(sample: RequestSample): void {
    this.httpDuration.observe({ route: sample.route, method: sample.method, status: String(sample.status) }, sample.durationSeconds);
  }

  /** Creates one counter per operation, every outcome at 0, so that rates exist before the first event. */
  declareAuthOutcomes(operations: readonly string[], outcomes: readonly string[]): void {
    for (const operation of operations) {
      const counter = (this.outcomes[operation] ??= new Counter({
        name: `account_${operation}_total`,
        help: `${operation} attempts by outcome`,
        labelNames: ['outcome'],
        registers: [this.registry],
      }));
      for (const outcome of outcomes) counter.inc({ outcome }, 0);
    }
  }

  authAttempted(operation: string, outcome: string): void {
    this.outcomes[operation]?.inc({ outcome });
  }

  readonly hashTimed = (operation: HashOperation, seconds: number): void => {
    this.hashDuration.observe({ operation }, seconds);
  };
}
