import { availableParallelism } from 'node:os';
import { type AnySchema, type InferType, type Schema, ValidationError, mixed, number, object, string } from 'yup';
import { ConfigError, collecting } from './config-error.js';
import { KEY_COMMANDS, ruleProblems } from './config-rules.js';
import { type TrustProxy, corsOriginsOf, durationMs, trustProxyOf } from './network-settings.js';

const port = (fallback: number) => number().integer().min(0).max(65535).default(fallback);
/** A fallback given as a function is computed at start (it depends on the machine): the docs then say what it is. */
const positiveInt = (fallback: number | (() => number), max: number) => number().integer().min(1).max(max).default(fallback);
const optionalText = () => string().trim().optional();
/** A secret of 32 characters or more: its message names the command that makes one (docs/security.md). */
const secret = (variable: string) => string().trim().min(32, `${variable} must be at least 32 characters (make one with: ${KEY_COMMANDS.secret})`).optional();
export const readableBy = (read: (raw: string) => unknown, expected: string) =>
  string()
    .trim()
    .test('readable', `\${path} must be ${expected}`, (value) => value === undefined || read(value) !== null);

/** The HTTP request timeout is 30 s; a store deadline must leave room to answer 503 well before it. */
const STORE_TIMEOUT_MAX_MS = 25_000;

const STORAGE_KINDS = ['lmdb', 'memory', 'mongodb', 'postgres'] as const;
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export type StorageKind = (typeof STORAGE_KINDS)[number];

/**
 * Every setting the service reads, with its environment variable, default and bounds. Exported so that
 * docs/configuration.md is generated from it (tools/generate-docs.ts); what each variable means is in
 * config-descriptions.ts, typed by this schema's keys.
 */
const colour = (name: string, fallback: string) =>
  string().trim().matches(/^#[0-9a-fA-F]{6}$/, `${name} must be a colour as #rrggbb`).default(fallback);

export const CONFIG_SCHEMA = object({
  NODE_ENV: string().oneOf(['development', 'production', 'test']).default('development'),
  PORT: port(3000),
  HOST: string().trim().min(1).default('127.0.0.1'),
  DATA_DIR: string().trim().min(1).default('./data'),
  MIN_FREE_DISK_BYTES: number().integer().min(0).default(64 * 1024 * 1024),
  STORAGE: mixed<StorageKind>().oneOf(STORAGE_KINDS).optional(),
  MONGODB_URI: string().trim().matches(/^mongodb(\+srv)?:\/\//, 'MONGODB_URI must start with mongodb:// or mongodb+srv://').optional(),
  MONGODB_TIMEOUT_MS: number().integer().min(100).max(STORE_TIMEOUT_MAX_MS, `MONGODB_TIMEOUT_MS must be at most ${STORE_TIMEOUT_MAX_MS} (below the 30 s HTTP request timeout)`).default(5_000),
  DATABASE_URL: string().trim().matches(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://').optional(),
  DATABASE_TIMEOUT_MS: number().integer().min(100).max(STORE_TIMEOUT_MAX_MS, `DATABASE_TIMEOUT_MS must be at most ${STORE_TIMEOUT_MAX_MS} (below the 30 s HTTP request timeout)`).default(5_000),
  DATABASE_POOL_SIZE: number().integer().min(1).max(1_000).default(10),
  MONGODB_DB: string().trim().matches(/^[^/\\. "$*<>:|?]{1,63}$/, 'MONGODB_DB must be a valid MongoDB database name').default('accounts'),
  LOG_LEVEL: string().oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: mixed<LogFormat>().oneOf(LOG_FORMATS).default('auto'),
  BODY_LIMIT_BYTES: positiveInt(16 * 1024, 1024 * 1024),
  SHUTDOWN_DRAIN_MS: number().integer().min(0).max(120_000).default(0),
  HEADERS_TIMEOUT_MS: positiveInt(10_000, 600_000),
  REQUEST_TIMEOUT_MS: positiveInt(30_000, 600_000),
  IDLE_TIMEOUT_MS: positiveInt(30_000, 600_000),
  KEEP_ALIVE_TIMEOUT_MS: positiveInt(5_000, 600_000),
  TIMEOUT_CHECK_INTERVAL_MS: positiveInt(1_000, 30_000),
  MAX_CONNECTIONS: positiveInt(900, 1_000_000),
  WORKERS: positiveInt(1, 256),
  ARGON2_MEMORY_KIB: number().integer().min(1024).max(1024 * 1024).default(19456),
  ARGON2_TIME_COST: positiveInt(2, 20),
  ARGON2_PARALLELISM: positiveInt(1, 16),
  HASH_CONCURRENCY: positiveInt(() => availableParallelism(), 256),
  HASH_QUEUE_MAX: number().integer().min(0).max(100_000).default(64),
  HASH_THREAD_NICE: number().integer().min(0).max(19).default(0),
  JWT_PRIVATE_KEY: optionalText(),
  JWT_PRIVATE_KEY_FILE: optionalText(),
  JWT_ISSUER: string().trim().min(1).default('account-service'),
  JWT_AUDIENCE: string().trim().min(1).default('account-service'),
  JWT_TTL_SECONDS: positiveInt(900, 24 * 3600),
  JWT_PREVIOUS_PUBLIC_KEYS_DIR: optionalText(),
  JWT_PREVIOUS_PUBLIC_KEY_FILES: optionalText(),
  SESSION_IDLE_TIMEOUT_SECONDS: positiveInt(14 * 86_400, 365 * 86_400),
  SESSION_MAX_LIFETIME_SECONDS: positiveInt(30 * 86_400, 365 * 86_400),
  REFRESH_REUSE_GRACE_SECONDS: number().integer().min(0).max(300).default(10),
  REFRESH_TOKEN_SECRET: secret('REFRESH_TOKEN_SECRET'),
  MFA_SECRET_KEY: secret('MFA_SECRET_KEY'),
  PERSONAL_DATA_KEY: secret('PERSONAL_DATA_KEY'),
  PERSONAL_DATA_KEY_FILE: optionalText(),
  MFA_ISSUER: string().trim().min(1).max(64).default('Account service'),
  MFA_CHALLENGE_SECONDS: positiveInt(300, 900),
  MFA_STEP_UP_SECONDS: positiveInt(300, 86_400),
  SESSION_SWEEP_INTERVAL_SECONDS: positiveInt(300, 86_400),
  PASSWORD_CHANGE_MAX_FAILURES: positiveInt(5, 100),
  SESSIONS_MAX_PER_ACCOUNT: positiveInt(50, 100_000),
  NEW_DEVICE_NOTICE: string().oneOf(['true', 'false'], 'NEW_DEVICE_NOTICE must be true or false').default('true'),
  EVENT_RETENTION_DAYS: positiveInt(90, 3650),
  EVENT_SWEEP_INTERVAL_SECONDS: positiveInt(3600, 86_400),
  PASSWORD_RESET_TTL_SECONDS: positiveInt(1800, 86_400),
  EMAIL_VERIFICATION_TTL_SECONDS: positiveInt(86_400, 30 * 86_400),
  PASSWORD_RESET_MAX_PER_ADDRESS: positiveInt(3, 100),
  PASSWORD_RESET_WINDOW_SECONDS: positiveInt(3600, 86_400),
  VERIFICATION_MAIL_MAX_PER_ADDRESS: positiveInt(3, 100),
  VERIFICATION_MAIL_WINDOW_SECONDS: positiveInt(3600, 86_400),
  PAGES_NAME: string().trim().min(1).max(64).default('Account service'),
  PAGES_LOGO_URL: string()
    .trim()
    .max(8192)
    .matches(/^(https:\/\/[^\s"<>]+|\/[^\s"<>]*|data:image\/(png|svg\+xml|webp|gif|jpeg);base64,[A-Za-z0-9+/=]+)$/, 'PAGES_LOGO_URL must be an https URL, a path on the service, or a data:image/…;base64 URL')
    .optional(),
  PAGES_ACCENT_COLOR: colour('PAGES_ACCENT_COLOR', '#1f5fbf'),
  PAGES_BACKGROUND_COLOR: colour('PAGES_BACKGROUND_COLOR', '#ffffff'),
  PAGES_TEXT_COLOR: colour('PAGES_TEXT_COLOR', '#1a1a1a'),
  PUBLIC_APP_URL: string().trim().matches(/^https?:\/\/[^\s#?]+$/, 'PUBLIC_APP_URL must be an http(s) URL without query or fragment').optional(),
  REQUIRE_VERIFIED_EMAIL: string().oneOf(['true', 'false'], 'REQUIRE_VERIFIED_EMAIL must be true or false').default('false'),
  UNVERIFIED_ACCOUNT_TTL: number().integer().min(0).max(365 * 86_400).optional(),
  ALLOW_SIGNING_KEY_IN_DATA_DIR: string().oneOf(['true', 'false'], 'ALLOW_SIGNING_KEY_IN_DATA_DIR must be true or false').default('false'),
  SMTP_URL: string().trim().matches(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://').optional(),
  MAIL_TRANSPORT: string().oneOf(['smtp', 'file'], 'MAIL_TRANSPORT must be smtp or file').optional(),
  MAIL_FROM: string().trim().min(3).default('Account service <no-reply@localhost>'),
  MAIL_POLL_INTERVAL_MS: positiveInt(1000, 60_000),
  MAIL_RETRY_BASE_MS: positiveInt(1000, 3_600_000),
  MAIL_RETRY_MAX_MS: positiveInt(300_000, 86_400_000),
  MAIL_MAX_ATTEMPTS: positiveInt(8, 1000),
  MAIL_SEND_CONCURRENCY: positiveInt(8, 256),
  MAIL_BATCH_SIZE: positiveInt(50, 1000),
  MAIL_LEASE_MS: number().integer().min(1000).max(600_000).default(10_000),
  THROTTLE_MAX_FAILURES: positiveInt(5, 1000),
  THROTTLE_WINDOW_SECONDS: positiveInt(900, 24 * 3600),
  RATE_LIMIT_MAX: positiveInt(100, 1_000_000),
  PASSWORD_RESET_RATE_LIMIT_MAX: positiveInt(10, 1_000_000),
  RATE_LIMIT_STORE: string().oneOf(['memory', 'redis'], 'RATE_LIMIT_STORE must be memory or redis').default('memory'),
  REDIS_URL: string().trim().matches(/^rediss?:\/\//, 'REDIS_URL must start with redis:// or rediss://').optional(),
  RATE_LIMIT_WINDOW: readableBy(durationMs, 'milliseconds or a duration such as "1 minute"').default('1 minute'),
  TRUST_PROXY: readableBy(trustProxyOf, 'true, false, a hop count or a list of addresses').default('false'),
  CORS_ORIGINS: readableBy(corsOriginsOf, '* or comma-separated origins such as https://app.example.com (no path, no trailing slash)').optional(),
  PUBLIC_API_URL: string().trim().matches(/^https?:\/\/[^\s#?]+[^/\s#?]$/, 'PUBLIC_API_URL must be an http(s) URL without query, fragment or trailing slash').optional(),
});

export { ConfigError };

type Env = InferType<typeof CONFIG_SCHEMA>;

/** The name of an environment variable the service reads. */
export type ConfigVariable = keyof typeof CONFIG_SCHEMA.fields;

export interface Config {
  readonly env: Env['NODE_ENV'];
  /** How the service's pages for people look (the sign-in pages, the consoles): PAGES_*. */
  readonly pages: {
    readonly name: string;
    readonly logoUrl: string | null;
    readonly accentColor: string;
    readonly backgroundColor: string;
    readonly textColor: string;
  };
  readonly http: {
    readonly port: number;
    readonly host: string;
    readonly bodyLimitBytes: number;
    readonly shutdownDrainMs: number;
    readonly timeoutsMs: HttpTimeouts;
    readonly maxConnections: number;
  };
  /** Processes serving HTTP on the one port (WORKERS): 1 serves in this process; more are forked by src/start.cts (node:cluster). */
  readonly workers: number;
  /** Origins browsers may call the API from (`['*']`: any); empty: no CORS headers at all. */
  readonly corsOrigins: readonly string[];
  /** The API's public base URL (the OpenAPI `servers` entry); undefined: relative to where the document is served. */
  readonly publicApiUrl: string | undefined;
  readonly storage: {
    readonly kind: StorageKind;
    readonly dataDir: string;
    /** Readiness fails while DATA_DIR's filesystem has less free space (embedded store; 0 turns it off). */
    readonly minFreeBytes: number;
    /** `timeoutMs`: the deadline of one store operation or transaction, retries included (MONGODB_TIMEOUT_MS). */
    readonly mongodb: { readonly uri: string | undefined; readonly dbName: string; readonly timeoutMs: number };
    /**
     * The PostgreSQL connection string (DATABASE_URL); `timeoutMs`: the deadline of one store operation or commit,
     * retries included (DATABASE_TIMEOUT_MS); `poolSize`: connections this process keeps at most (DATABASE_POOL_SIZE).
     */
    readonly postgres: { readonly url: string | undefined; readonly timeoutMs: number; readonly poolSize: number };
  };
  readonly logLevel: string;
  /** `auto`: pretty lines when stdout is a terminal, JSON otherwise. */
  readonly logFormat: LogFormat;
  readonly argon2: { readonly memoryKiB: number; readonly timeCost: number; readonly parallelism: number };
  /** threadNice: how much lower the hashing threads' scheduling priority is (applied by src/start.cts). */
  readonly hashing: { readonly concurrency: number; readonly maxQueue: number; readonly threadNice: number };
  readonly throttle: { readonly maxFailures: number; readonly windowSeconds: number };
  /** The second factor: how long a sign-in challenge lives, and how recent a proof step-up asks for. */
  readonly mfa: { readonly challengeSeconds: number; readonly stepUpSeconds: number };
  readonly mail: {
    readonly resetTtlSeconds: number;
    readonly verificationTtlSeconds: number;
    readonly resetPerAddress: { readonly max: number; readonly windowSeconds: number };
    readonly verificationPerAddress: { readonly max: number; readonly windowSeconds: number };
    readonly publicAppUrl: string;
    readonly requireVerifiedEmail: boolean;
    /** Seconds after which an account whose address nobody proved is erased; 0: never (see UNVERIFIED_ACCOUNT_TTL). */
    readonly unverifiedAccountTtlSeconds: number;
    /** `smtp` sends through smtpUrl; `file` writes each mail under DATA_DIR/mail (see mailTransportOf). */
    readonly transport: 'smtp' | 'file';
    readonly smtpUrl: string | undefined;
    readonly from: string;
    readonly pollIntervalMs: number;
    /** A failed delivery is retried after `retryBaseMs`, doubled per failure, at most `retryMaxMs`. */
    readonly retryBaseMs: number;
    readonly retryMaxMs: number;
    /** A mail that failed this many times is given up (a dead letter, kept for an operator). */
    readonly maxAttempts: number;
    /** Mails sent at once; mails claimed per poll; how long a claimed mail is reserved for this instance. */
    readonly sendConcurrency: number;
    readonly batchSize: number;
    readonly leaseMs: number;
  };
  readonly sessions: {
    readonly lifetimes: { readonly idleSeconds: number; readonly maxSeconds: number };
    readonly reuseGraceSeconds: number;
    /** Keys refresh tokens; when absent they are keyed from the JWT signing key. */
    readonly refreshTokenSecret: string | undefined;
    /** The key second-factor secrets are sealed and recovery codes MAC-ed under (derived from the refresh material when unset). */
    readonly mfaSecretKey: string | undefined;
    /** The key personal data's data keys are wrapped under (`personalDataSecret`: generated outside production when unset). */
    readonly personalDataKey: string | undefined;
    /** A file holding that key, instead of the variable (a secret mount): read at start. */
    readonly personalDataKeyFile: string | undefined;
    /** The issuer authenticator apps show beside the account. */
    readonly mfaIssuer: string;
    readonly sweepIntervalSeconds: number;
    /** Wrong current passwords one session may present on a password change before it ends. */
    readonly passwordChangeMaxFailures: number;
    /** Sessions one account keeps at most: a sign-in beyond it ends the least recently used one. */
    readonly maxPerAccount: number;
    /** Whether a sign-in from a device the account has not used recently mails its owner. */
    readonly newDeviceNotice: boolean;
  };
  /** High-volume events (failed and successful sign-ins, session starts, mail requests) older than this are removed. */
  readonly retention: { readonly days: number; readonly sweepIntervalSeconds: number };
  readonly rateLimit: {
    readonly max: number;
    readonly windowMs: number;
    readonly reset: { readonly max: number; readonly windowMs: number };
    /** Where the per-client counters live: each process's memory, or one Redis for every instance and worker. */
    readonly store: { readonly kind: 'memory' } | { readonly kind: 'redis'; readonly url: string };
  };
  /**
   * The capabilities' own settings (each manifest's `settings`), validated with the rest: by variable name, as the
   * manifests given to loadConfig declare them (read with `settingsOf`, container/capability.ts).
   */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** What the capabilities derive from the environment beyond fixed variables (`DerivedSettings`), by key. */
  readonly derived: Readonly<Record<string, unknown>>;
  readonly trustProxy: TrustProxy;
  readonly jwt: {
    readonly privateKeyPem: string | undefined;
    readonly privateKeyFile: string | undefined;
    readonly issuer: string;
    readonly audience: string;
    readonly ttlSeconds: number;
    readonly previousPublicKeysDir: string | undefined;
    readonly previousPublicKeyFiles: readonly string[];
  };
}

/** Deadlines for one connection; see the README's "Faults and limits" for the effective ones. */
export interface HttpTimeouts {
  /** Request line and headers complete within this (slowloris). */
  readonly headers: number;
  /** Whole request, body included, received within this. */
  readonly request: number;
  /** A socket that sends nothing for this long is closed. */
  readonly connection: number;
  /** An idle keep-alive socket between requests is closed after this. */
  readonly keepAlive: number;
  /** How often header and request deadlines are checked: a deadline may overrun by up to this much. */
  readonly checkInterval: number;
}


/**
 * The environment validated by `shape`, every refusal added to `problems` (and its variable to `invalid`); a refused
 * variable then takes its default, so that the rules across variables are still checked.
 */
const validate = <T>(raw: Record<string, string | undefined>, shape: Schema<T>, problems: string[], invalid = new Set<string>()): T => {
  const present = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined && value !== ''));
  try {
    return shape.validateSync(present, { abortEarly: false, stripUnknown: true });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    problems.push(...error.errors);
    for (const refused of error.inner) invalid.add(refused.path ?? '');
  }
  try {
    return shape.validateSync(Object.fromEntries(Object.entries(present).filter(([name]) => !invalid.has(name))), { stripUnknown: true });
  } catch {
    throw new ConfigError(problems);
  }
};

const httpTimeouts = (env: Env): HttpTimeouts => ({
  headers: env.HEADERS_TIMEOUT_MS,
  request: env.REQUEST_TIMEOUT_MS,
  connection: env.IDLE_TIMEOUT_MS,
  keepAlive: env.KEEP_ALIVE_TIMEOUT_MS,
  checkInterval: env.TIMEOUT_CHECK_INTERVAL_MS,
});

/** STORAGE when set; otherwise MongoDB whenever MONGODB_URI is set, PostgreSQL whenever DATABASE_URL is, else the embedded LMDB store. */
const storageKind = (env: Env): StorageKind => env.STORAGE ?? (env.MONGODB_URI !== undefined ? 'mongodb' : env.DATABASE_URL !== undefined ? 'postgres' : 'lmdb');

/**
 * How mails leave: SMTP when SMTP_URL is set, files under DATA_DIR/mail otherwise (MAIL_TRANSPORT=file: files even
 * with SMTP_URL). Production without SMTP_URL is refused by the rules (config-rules.ts) unless MAIL_TRANSPORT=file.
 */
const mailTransportOf = (env: Env): 'smtp' | 'file' => (env.MAIL_TRANSPORT !== 'file' && env.SMTP_URL !== undefined ? 'smtp' : 'file');

/** RATE_LIMIT_STORE=redis with REDIS_URL (the rules refuse it without). */
const rateLimitStoreOf = (env: Env): Config['rateLimit']['store'] =>
  env.RATE_LIMIT_STORE === 'redis' && env.REDIS_URL !== undefined ? { kind: 'redis', url: env.REDIS_URL } : { kind: 'memory' };

/** A capability's settings as loadConfig validates them: each variable's schema (its manifest adds what it means). */
export type SettingSchemas = Readonly<Record<string, { readonly schema: AnySchema }>>;

/**
 * What a capability's configuration holds that fixed variables cannot say (a family of variables such as
 * OAUTH_<NAME>_*, a rule across variables): derived by loadConfig from the environment and the configuration
 * validated so far (the capability's variables in `capabilities`), so that a ConfigError stops the start with the
 * others; kept under `key` in `Config.derived` (read with `derivedOf`, container/capability.ts).
 */
export interface DerivedSettings<T> {
  readonly key: string;
  derive(raw: Readonly<Record<string, string | undefined>>, config: Config): T;
}

/** What loadConfig reads of a capability's manifest: its variables and what it derives. */
export interface CapabilityConfig {
  readonly settings: SettingSchemas;
  readonly derived?: DerivedSettings<unknown>;
}

/**
 * The configuration from the environment, validated whole: the core's variables (CONFIG_SCHEMA), the rules across
 * them (config-rules.ts) and those of every capability whose settings are given (the composition roots pass their
 * manifests'). Throws one ConfigError listing every problem found, each naming its variable.
 */
export function loadConfig(raw: Record<string, string | undefined> = process.env, capabilities: readonly CapabilityConfig[] = []): Config {
  const problems: string[] = [];
  const config = coreConfigOf(raw, capabilities.map((capability) => capability.settings), problems);
  const derived = capabilities.flatMap(({ derived }) =>
    derived === undefined ? [] : collecting(problems, () => [[derived.key, derived.derive(raw, config)] as const], []),
  );
  if (problems.length > 0) throw new ConfigError(problems);
  return { ...config, derived: Object.fromEntries(derived) };
}

function coreConfigOf(raw: Record<string, string | undefined>, capabilitySettings: readonly SettingSchemas[], problems: string[]): Config {
  const invalid = new Set<string>();
  const env = validate(raw, CONFIG_SCHEMA, problems, invalid);
  problems.push(...ruleProblems(env, (variable) => invalid.has(variable) || (env as Record<string, unknown>)[variable] !== undefined));
  return {
    derived: {},
    env: env.NODE_ENV,
    http: {
      port: env.PORT,
      host: env.HOST,
      bodyLimitBytes: env.BODY_LIMIT_BYTES,
      shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
      timeoutsMs: httpTimeouts(env),
      maxConnections: env.MAX_CONNECTIONS,
    },
    workers: env.WORKERS,
    corsOrigins: corsOriginsOf(env.CORS_ORIGINS ?? '') ?? [],
    publicApiUrl: env.PUBLIC_API_URL,
    storage: {
      kind: storageKind(env),
      dataDir: env.DATA_DIR,
      minFreeBytes: env.MIN_FREE_DISK_BYTES,
      mongodb: { uri: env.MONGODB_URI, dbName: env.MONGODB_DB, timeoutMs: env.MONGODB_TIMEOUT_MS },
      postgres: { url: env.DATABASE_URL, timeoutMs: env.DATABASE_TIMEOUT_MS, poolSize: env.DATABASE_POOL_SIZE },
    },
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    pages: { name: env.PAGES_NAME, logoUrl: env.PAGES_LOGO_URL ?? null, accentColor: env.PAGES_ACCENT_COLOR, backgroundColor: env.PAGES_BACKGROUND_COLOR, textColor: env.PAGES_TEXT_COLOR },
    argon2: { memoryKiB: env.ARGON2_MEMORY_KIB, timeCost: env.ARGON2_TIME_COST, parallelism: env.ARGON2_PARALLELISM },
    hashing: { concurrency: env.HASH_CONCURRENCY, maxQueue: env.HASH_QUEUE_MAX, threadNice: env.HASH_THREAD_NICE },
    throttle: { maxFailures: env.THROTTLE_MAX_FAILURES, windowSeconds: env.THROTTLE_WINDOW_SECONDS },
    mfa: { challengeSeconds: env.MFA_CHALLENGE_SECONDS, stepUpSeconds: env.MFA_STEP_UP_SECONDS },
    mail: {
      resetTtlSeconds: env.PASSWORD_RESET_TTL_SECONDS,
      verificationTtlSeconds: env.EMAIL_VERIFICATION_TTL_SECONDS,
      resetPerAddress: { max: env.PASSWORD_RESET_MAX_PER_ADDRESS, windowSeconds: env.PASSWORD_RESET_WINDOW_SECONDS },
      verificationPerAddress: { max: env.VERIFICATION_MAIL_MAX_PER_ADDRESS, windowSeconds: env.VERIFICATION_MAIL_WINDOW_SECONDS },
      // Unset: the service's own pages (its account console) are the app the mails link to.
      publicAppUrl: env.PUBLIC_APP_URL ?? `${env.PUBLIC_API_URL ?? `http://localhost:${env.PORT}`}/account`,
      requireVerifiedEmail: env.REQUIRE_VERIFIED_EMAIL === 'true',
      // Seven days where an unverified account holds nothing but a resend (REQUIRE_VERIFIED_EMAIL); elsewhere it signs in
      // like any other, so erasing it is the operator's explicit choice.
      unverifiedAccountTtlSeconds: env.UNVERIFIED_ACCOUNT_TTL ?? (env.REQUIRE_VERIFIED_EMAIL === 'true' ? 7 * 86_400 : 0),
      transport: mailTransportOf(env),
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM,
      pollIntervalMs: env.MAIL_POLL_INTERVAL_MS,
      retryBaseMs: env.MAIL_RETRY_BASE_MS,
      retryMaxMs: Math.max(env.MAIL_RETRY_MAX_MS, env.MAIL_RETRY_BASE_MS),
      maxAttempts: env.MAIL_MAX_ATTEMPTS,
      sendConcurrency: env.MAIL_SEND_CONCURRENCY,
      batchSize: env.MAIL_BATCH_SIZE,
      leaseMs: env.MAIL_LEASE_MS,
    },
    sessions: {
      lifetimes: { idleSeconds: env.SESSION_IDLE_TIMEOUT_SECONDS, maxSeconds: env.SESSION_MAX_LIFETIME_SECONDS },
      reuseGraceSeconds: env.REFRESH_REUSE_GRACE_SECONDS,
      refreshTokenSecret: env.REFRESH_TOKEN_SECRET,
      mfaSecretKey: env.MFA_SECRET_KEY,
      personalDataKey: env.PERSONAL_DATA_KEY,
      personalDataKeyFile: env.PERSONAL_DATA_KEY_FILE,
      mfaIssuer: env.MFA_ISSUER,
      sweepIntervalSeconds: env.SESSION_SWEEP_INTERVAL_SECONDS,
      passwordChangeMaxFailures: env.PASSWORD_CHANGE_MAX_FAILURES,
      maxPerAccount: env.SESSIONS_MAX_PER_ACCOUNT,
      newDeviceNotice: env.NEW_DEVICE_NOTICE === 'true',
    },
    retention: { days: env.EVENT_RETENTION_DAYS, sweepIntervalSeconds: env.EVENT_SWEEP_INTERVAL_SECONDS },
    capabilities: validate(raw, object(Object.assign({}, ...capabilitySettings.map((settings) => Object.fromEntries(Object.entries(settings).map(([name, setting]) => [name, setting.schema])))) as Record<string, Schema>), problems),
    rateLimit: {
      max: env.RATE_LIMIT_MAX,
      windowMs: durationMs(env.RATE_LIMIT_WINDOW) ?? 60_000,
      reset: { max: env.PASSWORD_RESET_RATE_LIMIT_MAX, windowMs: 15 * 60_000 },
      store: rateLimitStoreOf(env),
    },
    trustProxy: trustProxyOf(env.TRUST_PROXY) ?? false,
    jwt: {
      privateKeyPem: env.JWT_PRIVATE_KEY,
      privateKeyFile: env.JWT_PRIVATE_KEY_FILE,
      issuer: env.JWT_ISSUER,
      audience: env.JWT_AUDIENCE,
      ttlSeconds: env.JWT_TTL_SECONDS,
      previousPublicKeysDir: env.JWT_PREVIOUS_PUBLIC_KEYS_DIR,
      previousPublicKeyFiles: (env.JWT_PREVIOUS_PUBLIC_KEY_FILES ?? '').split(',').map((file) => file.trim()).filter(Boolean),
    },
  };
}
