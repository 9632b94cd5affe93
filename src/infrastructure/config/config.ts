import { availableParallelism } from 'node:os';
import { type InferType, type Schema, mixed, number, object, string } from 'yup';

const port = (fallback: number) => number().integer().min(0).max(65535).default(fallback);
const positiveInt = (fallback: number, max: number) => number().integer().min(1).max(max).default(fallback);
const optionalText = () => string().trim().optional();

/** Every setting the service reads, with its environment variable, default and bounds. */
const schema = object({
  NODE_ENV: string().oneOf(['development', 'production', 'test']).default('development'),
  PORT: port(3000),
  HOST: string().trim().min(1).default('0.0.0.0'),
  DATA_DIR: string().trim().min(1).default('./data'),
  STORAGE: mixed<'lmdb' | 'memory'>().oneOf(['lmdb', 'memory']).default('lmdb'),
  LOG_LEVEL: string().oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: positiveInt(16 * 1024, 1024 * 1024),
  SHUTDOWN_DRAIN_MS: number().integer().min(0).max(120_000).default(0),
  ARGON2_MEMORY_KIB: number().integer().min(1024).max(1024 * 1024).default(19456),
  ARGON2_TIME_COST: positiveInt(2, 20),
  ARGON2_PARALLELISM: positiveInt(1, 16),
  HASH_CONCURRENCY: positiveInt(availableParallelism(), 256),
  HASH_QUEUE_MAX: number().integer().min(0).max(100_000).default(64),
  JWT_PRIVATE_KEY: optionalText(),
  JWT_PRIVATE_KEY_FILE: optionalText(),
  JWT_ISSUER: string().trim().min(1).default('account-service'),
  JWT_AUDIENCE: string().trim().min(1).default('account-service'),
  JWT_TTL_SECONDS: positiveInt(900, 24 * 3600),
});

type Env = InferType<typeof schema>;

export interface Config {
  readonly env: Env['NODE_ENV'];
  readonly http: { readonly port: number; readonly host: string; readonly bodyLimitBytes: number; readonly shutdownDrainMs: number };
  readonly storage: { readonly kind: Env['STORAGE']; readonly dataDir: string };
  readonly logLevel: string;
  readonly argon2: { readonly memoryKiB: number; readonly timeCost: number; readonly parallelism: number };
  readonly hashing: { readonly concurrency: number; readonly maxQueue: number };
  readonly jwt: {
    readonly privateKeyPem: string | undefined;
    readonly privateKeyFile: string | undefined;
    readonly issuer: string;
    readonly audience: string;
    readonly ttlSeconds: number;
  };
}

/** Thrown at start-up for a setting that is present but wrong; the message names the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const validate = (raw: Record<string, string | undefined>, shape: Schema<Env>): Env => {
  const present = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined && value !== ''));
  try {
    return shape.validateSync(present, { abortEarly: false, stripUnknown: true });
  } catch (error) {
    const errors = (error as { errors?: string[] }).errors ?? [String(error)];
    throw new ConfigError(`Invalid configuration: ${errors.join('; ')}`);
  }
};

/** Reads and validates the configuration from environment variables. Throws ConfigError. */
export function loadConfig(raw: Record<string, string | undefined> = process.env): Config {
  const env = validate(raw, schema);
  return {
    env: env.NODE_ENV,
    http: { port: env.PORT, host: env.HOST, bodyLimitBytes: env.BODY_LIMIT_BYTES, shutdownDrainMs: env.SHUTDOWN_DRAIN_MS },
    storage: { kind: env.STORAGE, dataDir: env.DATA_DIR },
    logLevel: env.LOG_LEVEL,
    argon2: { memoryKiB: env.ARGON2_MEMORY_KIB, timeCost: env.ARGON2_TIME_COST, parallelism: env.ARGON2_PARALLELISM },
    hashing: { concurrency: env.HASH_CONCURRENCY, maxQueue: env.HASH_QUEUE_MAX },
    jwt: {
      privateKeyPem: env.JWT_PRIVATE_KEY,
      privateKeyFile: env.JWT_PRIVATE_KEY_FILE,
      issuer: env.JWT_ISSUER,
      audience: env.JWT_AUDIENCE,
      ttlSeconds: env.JWT_TTL_SECONDS,
    },
  };
}
