import { token } from '../../application/di-token.js';
import type { Config } from '../config/config.js';
import type { PrometheusMetrics } from '../metrics/prometheus-metrics.js';
import type { ConcurrencyLimiter } from '../security/concurrency-limiter.js';
import type { SigningKey } from '../security/signing-key.js';
import type { VerificationKeyRing } from '../security/verification-key-ring.js';
import type { Storage } from '../storage/storage.js';

/** Tokens of infrastructure pieces that several adapters share; ports have theirs next to the port. */
export const CONFIG = token<Config>('Config');
export const SIGNING_KEY = token<SigningKey>('SigningKey');
export const KEY_RING = token<VerificationKeyRing>('VerificationKeyRing');
export const HASH_LIMITER = token<ConcurrencyLimiter>('HashLimiter');
export const METRICS = token<PrometheusMetrics>('Metrics');
export const STORAGE = token<Storage>('Storage');
