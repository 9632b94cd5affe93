import { createHash } from 'node:crypto';
import { number, string } from 'yup';
import type { Config, DerivedSettings } from '../config/config.js';
import { ConfigError } from '../config/config-error.js';
import { settingsOf } from '../container/capability.js';

export interface WebhookConfig {
  /** Each receiver with its id (a hash of its URL: its cursor survives a reordering of WEBHOOK_URL). */
  readonly receivers: readonly { readonly id: string; readonly url: string }[];
  /** `whsec_<base64>`; empty when no receiver is configured. */
  readonly secret: string;
  readonly maxAttempts: number;
  readonly timeoutMs: number;
  readonly pollIntervalMs: number;
}

const SECRET = /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/;
const SECRET_FORM = '`whsec_` followed by base64 of at least 24 random bytes; make one with: echo "whsec_$(openssl rand -base64 32)"';

const isHttpUrl = (url: string): boolean => {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
};

/** What is wrong with WEBHOOK_URL's receivers and WEBHOOK_SECRET, each naming its variable (never the secret's value). */
const webhookProblems = (urls: readonly string[], secret: string | undefined): string[] => [
  ...urls.filter((url) => !isHttpUrl(url)).map((url) => `WEBHOOK_URL holds ${JSON.stringify(url)}, not an http(s) URL`),
  ...(urls.length === 0 || (secret !== undefined && SECRET.test(secret))
    ? []
    : [secret === undefined ? `WEBHOOK_SECRET is required when WEBHOOK_URL is set: ${SECRET_FORM}` : `WEBHOOK_SECRET is set but not of the expected form: ${SECRET_FORM}`]),
];

/** WEBHOOK_URL (comma-separated http(s) URLs) and WEBHOOK_SECRET, required together. Throws one ConfigError naming every wrong setting. */
export function webhookSettingsOf(env: {
  readonly WEBHOOK_URL?: string | undefined;
  readonly WEBHOOK_SECRET?: string | undefined;
  readonly WEBHOOK_MAX_ATTEMPTS: number;
  readonly WEBHOOK_TIMEOUT_MS: number;
  readonly WEBHOOK_POLL_INTERVAL_MS: number;
}): WebhookConfig {
  const urls = (env.WEBHOOK_URL ?? '').split(',').map((url) => url.trim()).filter((url) => url.length > 0);
  const problems = webhookProblems(urls, env.WEBHOOK_SECRET);
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    receivers: [...new Set(urls)].map((url) => ({ id: createHash('sha256').update(url).digest('hex').slice(0, 24), url })),
    secret: urls.length > 0 ? (env.WEBHOOK_SECRET ?? '') : '',
    maxAttempts: env.WEBHOOK_MAX_ATTEMPTS,
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    pollIntervalMs: env.WEBHOOK_POLL_INTERVAL_MS,
  };
}

const positiveInt = (fallback: number, max: number) => number().integer().min(1).max(max).default(fallback);

/** The webhooks' own variables (their manifest's `settings`). */
export const WEBHOOK_VARIABLES = {
  WEBHOOK_URL: {
    schema: string().trim().optional(),
    section: 'Webhooks',
    meaning: 'the receivers of signed webhooks (Standard Webhooks), comma-separated http(s) URLs; each gets every account event of docs/operators.md in log order, at least once, on its own',
    whenUnset: 'no webhooks',
  },
  WEBHOOK_SECRET: {
    schema: string().trim().optional(),
    section: 'Webhooks',
    meaning: 'the key webhooks are signed with: `whsec_` followed by base64 of at least 24 random bytes, as Standard Webhooks libraries make it (`echo "whsec_$(openssl rand -base64 32)"`); required with `WEBHOOK_URL`',
    whenUnset: 'none (required when `WEBHOOK_URL` is set)',
  },
  WEBHOOK_MAX_ATTEMPTS: {
    schema: positiveInt(8, 100),
    section: 'Webhooks', meaning: 'failed deliveries of one event to one receiver after which it is given up (a dead letter) and the receiver gets the next' },
  WEBHOOK_TIMEOUT_MS: {
    schema: positiveInt(5000, 60_000),
    section: 'Webhooks', meaning: 'how long a receiver has to answer 2xx before the delivery counts as failed' },
  WEBHOOK_POLL_INTERVAL_MS: {
    schema: positiveInt(500, 60_000),
    section: 'Webhooks', meaning: 'how often each receiver is sent what happened since (an event waits at least 1 s more, for commits of other instances)' },
} as const;

/** The receivers and their secret, checked together (WEBHOOK_URL needs WEBHOOK_SECRET): derived by loadConfig from WEBHOOK_VARIABLES. */
export const WEBHOOKS: DerivedSettings<WebhookConfig> = {
  key: 'webhooks',
  derive: (_raw, config: Config) => webhookSettingsOf(settingsOf(config, WEBHOOK_VARIABLES)),
};
