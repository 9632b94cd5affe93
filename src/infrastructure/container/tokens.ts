import type { Logger } from 'pino';
import { token } from '../../application/di-token.js';
import type { Policies, UseCases } from '../../application/registry.js';
import type { PrimaryPasswordHasher } from '../cluster/primary-hashing.js';
import type { Config } from '../config/config.js';
import type { JobRunner } from '../jobs/job-runner.js';
import type { PeriodicJob } from '../jobs/periodic-job.js';
import type { PrometheusMetrics } from '../metrics/prometheus-metrics.js';
import type { ConcurrencyLimiter } from '../security/concurrency-limiter.js';
import type { SigningKey } from '../security/signing-key.js';
import type { PersonalDataKeys } from '../security/personal-data-keys.js';
import type { VerificationKeyRing } from '../security/verification-key-ring.js';
import type { Storage } from '../storage/storage.js';
import type { Schema } from '../storage/ownership.js';
import type { SharedRateLimitStore } from '../rate-limit/redis-rate-limit-store.js';

/** Tokens of what the infrastructure binds besides the ports (ports have theirs next to the port, in PORT_TOKENS). */
export const CONFIG = token<Config>('Config');
export const LOGGER = token<Logger>('Logger');
export const SIGNING_KEY = token<SigningKey>('SigningKey');
export const KEY_RING = token<VerificationKeyRing>('VerificationKeyRing');
/** The keys personal data is sealed under at rest (the storage is opened with them). */
export const PERSONAL_DATA_KEYS = token<PersonalDataKeys>('PersonalDataKeys');
/** PERSONAL_DATA_KEY (or the key generated outside production): the one secret never rotated, what the keys above and the API keys' MACs derive from. */
export const STABLE_SECRET = token<Buffer>('StableSecret');
/** REFRESH_TOKEN_SECRET, else the signing key's private bytes: what the one-time tokens' and the flows' keys derive from (HKDF, one label each). */
export const SERVICE_SECRET = token<Buffer>('ServiceSecret');
export const HASH_LIMITER = token<ConcurrencyLimiter>('HashLimiter');
/** In a worker of several (WORKERS): the hasher that asks the primary, which hashes for every worker; null otherwise. */
export const PRIMARY_HASHER = token<PrimaryPasswordHasher | null>('PrimaryHasher');
export const METRICS = token<PrometheusMetrics>('Metrics');
export const STORAGE = token<Storage>('Storage');
/** The tables of this composition: the core's and its capabilities' (the storage and the sweeps read them). */
export const SCHEMA = token<Schema>('Schema');
export const POLICIES = token<Policies>('Policies');
export const USE_CASES = token<UseCases>('UseCases');
/** Every periodic job of the service: the one list the runner starts and stops. */
export const JOBS = token<readonly PeriodicJob[]>('Jobs');
/** The capabilities' periodic jobs (each manifest's `jobs`), run with the core's. */
export const CAPABILITY_JOBS = token<readonly PeriodicJob[]>('CapabilityJobs');
export const MAIL_DISPATCH_JOB = token<PeriodicJob>('MailDispatchJob');
export const JOB_RUNNER = token<JobRunner>('JobRunner');
/** The HTTP part of the lifecycle, built by main.ts's factory from the graph (infrastructure never imports the interfaces). */
/** The per-client limits' shared store (RATE_LIMIT_STORE=redis); null: each process counts its own. */
export const RATE_LIMIT_STORE = token<SharedRateLimitStore | null>('RateLimitStore');
export const HTTP = token<{ readonly name: string; start(): Promise<void>; stop(): Promise<void> }>('Http');
