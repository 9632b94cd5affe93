import { token } from '../../application/ports/token.js';
import type { Config } from '../config/config.js';
import type { ConcurrencyLimiter } from '../security/concurrency-limiter.js';
import type { SigningKey } from '../security/signing-key.js';

export const CONFIG = token<Config>('Config');
export const SIGNING_KEY = token<SigningKey>('SigningKey');
export const HASH_LIMITER = token<ConcurrencyLimiter>('HashLimiter');
