import type { ConfigVariable } from './config.js';

/**
 * The topics the configuration reference is grouped by, in the order it lists them. A tuple rather than headings
 * typed into the docs, so that the grouping is checked like the rest: every variable names one of these.
 */
export const CONFIG_SECTIONS = [
  'HTTP server',
  'Storage',
  'Logging',
  'Password hashing',
  'Access tokens and signing keys',
  'Sessions',
  'Sign-in throttle and rate limits',
  'Mail, password reset and e-mail verification',
  'Browser apps and proxies',
  'Pages for people',
  'Social sign-in',
  'Event retention',
  'Webhooks',
] as const;

export type ConfigSection = (typeof CONFIG_SECTIONS)[number];

/** What an operator needs to know about one variable besides its default and bounds (those come from the schema). */
export interface ConfigDescription {
  readonly section: ConfigSection;
  /** What the variable does; markdown, one line. */
  readonly meaning: string;
  /**
   * What leaving the variable unset means, for a variable whose schema has no fixed default: none at all, or one
   * computed at start (which would differ from machine to machine in the docs). Required for a computed default.
   */
  readonly whenUnset?: string;
}

/**
 * The meaning of every environment variable of CONFIG_SCHEMA, next to the schema so that the two change together:
 * the mapped type makes a variable without a description a compile error, and docs/configuration.md is generated
 * from this table and the schema (`npm run docs:generate`). Within a section, rows keep this table's order.
 */
export const CONFIG_DESCRIPTIONS: { readonly [V in ConfigVariable]: ConfigDescription } = {
  NODE_ENV: { section: 'HTTP server', meaning: '`production` requires a configured JWT key (and keeps it out of `DATA_DIR`)' },
  PORT: { section: 'HTTP server', meaning: 'HTTP port (`0` picks a free one)' },
  WORKERS: {
    section: 'HTTP server',
    meaning:
      'processes serving the port (node:cluster), each with its own event loop, all on the one store (LMDB or MongoDB), their password hashing run by the primary behind one `HASH_CONCURRENCY` and `HASH_QUEUE_MAX`, while the per-IP rate limit counts per process; see [Workers](operations.md#workers)',
  },
  HOST: { section: 'HTTP server', meaning: 'interface to listen on: this machine only by default; a container sets `0.0.0.0` (the Dockerfile does), or nothing outside it could connect' },
  BODY_LIMIT_BYTES: { section: 'HTTP server', meaning: 'larger bodies get 413' },
  SHUTDOWN_DRAIN_MS: {
    section: 'HTTP server',
    meaning: 'on SIGTERM, how long readiness fails while requests are still served, before the server stops accepting',
  },
  HEADERS_TIMEOUT_MS: {
    section: 'HTTP server',
    meaning: 'request line and headers must arrive within this (slowloris); else 408 and the socket is closed; at most `REQUEST_TIMEOUT_MS`',
  },
  REQUEST_TIMEOUT_MS: { section: 'HTTP server', meaning: 'the whole request, body included, must arrive within this; else 408' },
  IDLE_TIMEOUT_MS: { section: 'HTTP server', meaning: 'a socket that sends nothing for this long is closed' },
  KEEP_ALIVE_TIMEOUT_MS: { section: 'HTTP server', meaning: 'how long an idle keep-alive socket waits for its next request' },
  TIMEOUT_CHECK_INTERVAL_MS: {
    section: 'HTTP server',
    meaning: 'how often the header and request deadlines are checked (a deadline may overrun by this much)',
  },
  MAX_CONNECTIONS: {
    section: 'HTTP server',
    meaning: 'open connections at most; more are closed as they arrive. Keep it below `ulimit -n` minus ~100',
  },

  STORAGE: {
    section: 'Storage',
    meaning: '`lmdb` (embedded, persistent), `memory` (lost on restart), `mongodb` or `postgres` (see [PostgreSQL](operations.md#postgresql)); an explicit value wins over `MONGODB_URI` and `DATABASE_URL`',
    whenUnset: '`lmdb`, or `mongodb` when `MONGODB_URI` is set, or `postgres` when `DATABASE_URL` is',
  },
  DATA_DIR: { section: 'Storage', meaning: 'where LMDB keeps `accounts.lmdb` and where a generated signing key is kept' },
  MIN_FREE_DISK_BYTES: {
    section: 'Storage',
    meaning: 'readiness answers 503 while the filesystem of `DATA_DIR` has less free space (embedded store; `0` turns it off)',
  },
  MONGODB_URI: {
    section: 'Storage',
    meaning: 'connection string of a MongoDB replica set (or mongos); setting it selects `mongodb`, required for `STORAGE=mongodb`',
  },
  MONGODB_DB: { section: 'Storage', meaning: 'MongoDB database name' },
  DATABASE_URL: {
    section: 'Storage',
    meaning: 'connection string of a PostgreSQL database (`postgres://user:password@host:5432/accounts`); setting it selects `postgres` (unless `MONGODB_URI` is set), required for `STORAGE=postgres`',
  },
  DATABASE_TIMEOUT_MS: {
    section: 'Storage',
    meaning:
      'deadline of one PostgreSQL operation or commit, retries included (kept below the 30 s HTTP request timeout); past it, and at once when the server refuses connections, the request gets `503` with `Retry-After`',
  },
  DATABASE_POOL_SIZE: {
    section: 'Storage',
    meaning:
      'PostgreSQL connections one process keeps at most; with `WORKERS` each worker has its own pool, so an instance opens up to `WORKERS` × this: keep instances × that under the server\'s `max_connections`',
  },
  MONGODB_TIMEOUT_MS: {
    section: 'Storage',
    meaning:
      'deadline of one MongoDB operation or transaction, retries included, and the `wtimeoutMS` of every write (kept below the 30 s HTTP request timeout); past it the request gets `503`',
  },

  LOG_LEVEL: { section: 'Logging', meaning: 'pino level: `fatal` … `trace`, or `silent`' },
  LOG_FORMAT: {
    section: 'Logging',
    meaning: '`json` (one JSON object a line, for log collectors), `pretty` (readable lines, pino-pretty), or `auto`: pretty when stdout is a terminal, JSON otherwise',
  },

  ARGON2_MEMORY_KIB: { section: 'Password hashing', meaning: 'argon2id memory cost (OWASP)' },
  ARGON2_TIME_COST: { section: 'Password hashing', meaning: 'argon2id iterations' },
  ARGON2_PARALLELISM: { section: 'Password hashing', meaning: 'argon2id lanes' },
  HASH_CONCURRENCY: {
    section: 'Password hashing',
    meaning:
      "argon2 operations run at once; libuv's pool gets this many threads plus 4 (`UV_THREADPOOL_SIZE`, set by `dist/start.cjs`; a larger value already set is kept); with `WORKERS` above 1, the primary runs this many for all the workers",
    whenUnset: 'the number of CPUs (`os.availableParallelism()`)',
  },
  HASH_QUEUE_MAX: { section: 'Password hashing', meaning: 'argon2 operations allowed to wait; past it: 503 at once; with `WORKERS` above 1, the queue of the primary for all the workers' },
  HASH_THREAD_NICE: {
    section: 'Password hashing',
    meaning: 'lowers the hashing threads\' scheduling priority by this much (Linux), so the event loop wins a contended core; see [Hashing threads](operations.md#hashing-threads)',
  },

  JWT_PRIVATE_KEY: {
    section: 'Access tokens and signing keys',
    meaning: 'PEM EC P-256 private key (ES256)',
    whenUnset: 'none: outside production a key is generated once and kept in `DATA_DIR`; production refuses to start without this or `JWT_PRIVATE_KEY_FILE`',
  },
  JWT_PRIVATE_KEY_FILE: {
    section: 'Access tokens and signing keys',
    meaning: 'path to that PEM, instead of the variable; in production it may not lie inside `DATA_DIR` (the service refuses to start)',
  },
  ALLOW_SIGNING_KEY_IN_DATA_DIR: {
    section: 'Access tokens and signing keys',
    meaning: '`true` lets a production key file lie inside `DATA_DIR`: only where that directory is protected like the key itself',
  },
  JWT_ISSUER: { section: 'Access tokens and signing keys', meaning: '`iss` claim' },
  JWT_AUDIENCE: { section: 'Access tokens and signing keys', meaning: '`aud` claim' },
  JWT_TTL_SECONDS: { section: 'Access tokens and signing keys', meaning: 'access token lifetime' },
  JWT_PREVIOUS_PUBLIC_KEYS_DIR: {
    section: 'Access tokens and signing keys',
    meaning: 'directory of PEM public keys (`*.pem`) still accepted and published in the JWK Set (see key rotation)',
  },
  JWT_PREVIOUS_PUBLIC_KEY_FILES: { section: 'Access tokens and signing keys', meaning: 'comma-separated paths of such PEM public keys' },

  SESSION_IDLE_TIMEOUT_SECONDS: { section: 'Sessions', meaning: 'a session ends this long after its last refresh' },
  SESSION_MAX_LIFETIME_SECONDS: { section: 'Sessions', meaning: 'and this long after sign-in at the latest' },
  REFRESH_REUSE_GRACE_SECONDS: {
    section: 'Sessions',
    meaning: 'the previous refresh token answers the same successor for this long after a rotation; `0` disables',
  },
  REFRESH_TOKEN_SECRET: {
    section: 'Sessions',
    meaning: 'keys refresh tokens; set it (the same on every instance) if you rotate signing keys, or every session ends with the old key',
    whenUnset: 'derived from the JWT signing key',
  },
  SESSION_SWEEP_INTERVAL_SECONDS: { section: 'Sessions', meaning: 'how often ended sessions are removed' },
  NEW_DEVICE_NOTICE: {
    section: 'Sessions',
    meaning:
      'a sign-in (any method) from a device the account has not used recently (none of its live sessions shares the browser and system of the user agent and the network: IPv4 /24, IPv6 /48) mails the owner when, from which network and on which kind of device (fixed words, never the user agent\'s text), with a link to `{PUBLIC_APP_URL}/sessions`; sent from the outbox, never in the request; only to a proven address, at most VERIFICATION_MAIL_MAX_PER_ADDRESS per window',
  },
  SESSIONS_MAX_PER_ACCOUNT: {
    section: 'Sessions',
    meaning:
      'sessions one account keeps at most; a sign-in beyond it ends the least recently used one (`evicted` in the activity feed; listing is paged, ending them all is one write, and a sign-in reads one count of the live sessions of the account, kept by every commit that opens or ends one, so a large cap stays cheap)',
  },
  PASSWORD_CHANGE_MAX_FAILURES: {
    section: 'Sessions',
    meaning: 'wrong current passwords one session may send to `POST /auth/password` (not counted by the sign-in throttle); the last one ends that session',
  },

  THROTTLE_MAX_FAILURES: {
    section: 'Sign-in throttle and rate limits',
    meaning: 'failed sign-ins for one e-mail within the window after which it gets 429',
  },
  THROTTLE_WINDOW_SECONDS: { section: 'Sign-in throttle and rate limits', meaning: 'the throttling window' },
  RATE_LIMIT_MAX: {
    section: 'Sign-in throttle and rate limits',
    meaning: 'requests to `/auth/*` per client address per window; more get 429',
  },
  RATE_LIMIT_WINDOW: { section: 'Sign-in throttle and rate limits', meaning: 'that window: milliseconds (`60000`) or a duration: `30s`, `15m`, `1 minute`, `1h`' },
  RATE_LIMIT_STORE: {
    section: 'Sign-in throttle and rate limits',
    meaning: 'where the per-client limits (`RATE_LIMIT_MAX`, `PASSWORD_RESET_RATE_LIMIT_MAX`) count: `memory` (each process apart: N instances allow N times the limit) or `redis` (one counter for every instance and worker, `REDIS_URL`; while Redis is unreachable they let requests through, see docs/operations.md "Scale-out")',
  },
  REDIS_URL: { section: 'Sign-in throttle and rate limits', meaning: 'the Redis of `RATE_LIMIT_STORE=redis` (`redis://` or `rediss://`)', whenUnset: 'none (required with `RATE_LIMIT_STORE=redis`)' },
  PASSWORD_RESET_RATE_LIMIT_MAX: {
    section: 'Sign-in throttle and rate limits',
    meaning: 'reset requests, reset confirmations and verification resends per client address per 15 minutes, each route counted apart; more get 429',
  },

  SMTP_URL: {
    section: 'Mail, password reset and e-mail verification',
    meaning:
      '`smtp://user:pass@host:587` (STARTTLS when the server offers it; add `?requireTLS=true` to insist) or `smtps://user:pass@host:465` (implicit TLS), as nodemailer reads it',
    whenUnset: 'none: mails are written to `DATA_DIR/mail/*.eml`; with `NODE_ENV=production` the service refuses to start unless `MAIL_TRANSPORT=file`',
  },
  UNVERIFIED_ACCOUNT_TTL: {
    section: 'Mail, password reset and e-mail verification',
    meaning:
      'seconds after which an account whose address nobody proved is erased by a sweep, as "not me" erases it (its sessions end, its data and events go, the address is free; a pseudonymous `SignUpCancelled` stays); `0`: never',
    whenUnset: '604800 (7 days) with `REQUIRE_VERIFIED_EMAIL=true`, where such an account holds nothing but a resend; `0` otherwise, where it signs in like any other',
  },
  MFA_SECRET_KEY: {
    section: 'Access tokens and signing keys',
    meaning: 'the key (32 characters or more) TOTP secrets are sealed under (AES-256-GCM) and recovery codes MAC-ed under (HMAC-SHA-256); keep it with the signing key, never in `DATA_DIR`',
    whenUnset: 'derived (HKDF) from `REFRESH_TOKEN_SECRET`, or from the signing key when that is unset, as the refresh-token key is',
  },
  PERSONAL_DATA_KEY: {
    section: 'Access tokens and signing keys',
    meaning:
      'the key (32 characters or more) that wraps each account\'s data key, under which its personal data (address, names, client IP, user agent) is sealed at rest, and that blinds stored addresses; deleting an account destroys its data key (docs/account.md). Keep it with the signing key, never in `DATA_DIR`, the same on every instance; never change it: every sealed field would be unreadable',
    whenUnset: 'required in production (the service refuses to start); elsewhere generated once and kept in `DATA_DIR/personal-data.key` (in memory only with `STORAGE=memory`)',
  },
  PERSONAL_DATA_KEY_FILE: {
    section: 'Access tokens and signing keys',
    meaning: 'path to a file holding that key (its text, trimmed), instead of the variable (a secret mount); never inside `DATA_DIR` in production (the service refuses to start), and not with `PERSONAL_DATA_KEY`',
  },
  MFA_ISSUER: { section: 'Access tokens and signing keys', meaning: 'the issuer an authenticator app shows beside the account (`otpauth://` URI)' },
  MFA_CHALLENGE_SECONDS: {
    section: 'Access tokens and signing keys',
    meaning: 'how long the `mfatoken` of a sign-in waiting for its second factor may be answered (it also ends after 5 wrong codes, and when the password changes)',
  },
  MFA_STEP_UP_SECONDS: {
    section: 'Access tokens and signing keys',
    meaning: 'how recent a second-factor proof (`auth_time` with `otp` in `amr`) a password change, removing the factor, new recovery codes and signing out everywhere ask for, on an account with a factor',
  },
  MAIL_TRANSPORT: {
    section: 'Mail, password reset and e-mail verification',
    meaning: '`smtp` (needs `SMTP_URL`) or `file` (each mail written to `DATA_DIR/mail/*.eml`, even with `SMTP_URL` set): the explicit choice, which production needs to keep mails as files',
    whenUnset: '`smtp` when `SMTP_URL` is set, `file` otherwise outside production',
  },
  MAIL_FROM: { section: 'Mail, password reset and e-mail verification', meaning: 'the From of every mail' },
  PUBLIC_APP_URL: {
    section: 'Mail, password reset and e-mail verification',
    meaning: "your front end's base URL: mailed links go to `{PUBLIC_APP_URL}/{page}#token=…`; its origin is the passkeys' and social sign-in's default",
    whenUnset: "the service's own pages: `{PUBLIC_API_URL}/account` (`http://localhost:{PORT}/account`), which complete every mailed link",
  },
  REQUIRE_VERIFIED_EMAIL: {
    section: 'Mail, password reset and e-mail verification',
    meaning: '`true`: sign-in of an unverified account answers 403, the tokens sign-up gives it work only for resend, and verifying ends the sessions opened before',
  },
  PASSWORD_RESET_TTL_SECONDS: { section: 'Mail, password reset and e-mail verification', meaning: 'a reset link works this long' },
  EMAIL_VERIFICATION_TTL_SECONDS: { section: 'Mail, password reset and e-mail verification', meaning: 'a verification link works this long' },
  PASSWORD_RESET_MAX_PER_ADDRESS: {
    section: 'Mail, password reset and e-mail verification',
    meaning: 'reset mails per address per window; more requests get the same 202 and no mail',
  },
  PASSWORD_RESET_WINDOW_SECONDS: { section: 'Mail, password reset and e-mail verification', meaning: 'that window' },
  VERIFICATION_MAIL_MAX_PER_ADDRESS: {
    section: 'Mail, password reset and e-mail verification',
    meaning: 'verification mails per address (so per account) per window, the one sign-up sends included; more resends get the same 202 and no mail',
  },
  VERIFICATION_MAIL_WINDOW_SECONDS: { section: 'Mail, password reset and e-mail verification', meaning: 'that window' },
  MAIL_POLL_INTERVAL_MS: { section: 'Mail, password reset and e-mail verification', meaning: 'how often the dispatcher looks for due mails' },
  MAIL_RETRY_BASE_MS: {
    section: 'Mail, password reset and e-mail verification',
    meaning: 'first retry delay after a failed delivery, doubled per failure up to `MAIL_RETRY_MAX_MS`',
  },
  MAIL_RETRY_MAX_MS: {
    section: 'Mail, password reset and e-mail verification',
    meaning: 'the longest retry delay (never below `MAIL_RETRY_BASE_MS`)',
  },
  MAIL_MAX_ATTEMPTS: {
    section: 'Mail, password reset and e-mail verification',
    meaning: 'failed deliveries after which a mail is given up (a dead letter, kept for an operator); a 5xx to its RCPT TO or DATA gives it up at once; a failing relay (connection, greeting, TLS, authentication) counts no attempt',
  },
  MAIL_SEND_CONCURRENCY: { section: 'Mail, password reset and e-mail verification', meaning: 'mails sent at once by one instance' },
  MAIL_BATCH_SIZE: { section: 'Mail, password reset and e-mail verification', meaning: 'mails claimed from the store per poll' },
  MAIL_LEASE_MS: {
    section: 'Mail, password reset and e-mail verification',
    meaning:
      "how long a claimed mail is reserved for the instance that claimed it; a killed instance's mails wait this long; each stage of an SMTP send (connecting, the greeting, any silence) gives up after a third of it, so a hanging server fails the send before another instance may send it again (a `connectionTimeout`, `greetingTimeout` or `socketTimeout` in `SMTP_URL`'s query wins)",
  },

  PAGES_NAME: { section: 'Pages for people', meaning: "the service's name on its pages (the OpenID provider's sign-in, consent, device and sign-out pages): their header and titles" },
  PAGES_LOGO_URL: {
    section: 'Pages for people',
    meaning: "a logo beside the name: an `https://` URL (the pages' CSP then allows images from its origin, and browsers fetch it from there), a path on the service, or a `data:image/…;base64,` URL (no request at all)",
    whenUnset: 'no logo: the name alone',
  },
  PAGES_ACCENT_COLOR: { section: 'Pages for people', meaning: "the buttons and focus ring (#rrggbb); white text on it must read at 4.5:1 or more (WCAG AA), and it on the background at 3:1, checked at start" },
  PAGES_BACKGROUND_COLOR: { section: 'Pages for people', meaning: "the pages' background (#rrggbb)" },
  PAGES_TEXT_COLOR: { section: 'Pages for people', meaning: "the pages' text (#rrggbb); on the background it must read at 4.5:1 or more (WCAG AA), checked at start" },
  CORS_ORIGINS: {
    section: 'Browser apps and proxies',
    meaning: 'origins browser apps may call the API from: comma-separated exact origins (`https://app.example.com,http://localhost:5173`) or `*` (see [Browser apps](api.md#browser-apps-cors-caching-docs-on-any-host))',
    whenUnset: 'none: no CORS headers at all',
  },
  PUBLIC_API_URL: {
    section: 'Browser apps and proxies',
    meaning: "the API's public base URL, listed as the OpenAPI `servers` entry; identity providers redirect to `{PUBLIC_API_URL}/auth/oauth/{name}/callback` (required in production when `OAUTH_PROVIDERS` is set)",
    whenUnset: 'none: `/` (the host serving the document); redirect URIs use `http://localhost:{PORT}`',
  },
  TRUST_PROXY: {
    section: 'Browser apps and proxies',
    meaning: '`true`, a hop count (`1`) or addresses/CIDRs (`10.0.0.0/8,127.0.0.1`): whose `X-Forwarded-For` gives the client address',
  },

  EVENT_RETENTION_DAYS: {
    section: 'Event retention',
    meaning: 'sign-in, session-start and mail-request events older than this are removed (see [Faults and limits](operations.md#faults-and-limits))',
  },
  EVENT_SWEEP_INTERVAL_SECONDS: { section: 'Event retention', meaning: 'how often the LMDB retention sweep runs' },
};
