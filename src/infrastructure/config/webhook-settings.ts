import { createHash } from 'node:crypto';
import { ConfigError } from './config-error.js';

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

/** WEBHOOK_URL (comma-separated http(s) URLs) and WEBHOOK_SECRET, required together. Throws ConfigError naming the setting. */
export function webhookSettingsOf(env: {
  readonly WEBHOOK_URL?: string | undefined;
  readonly WEBHOOK_SECRET?: string | undefined;
  readonly WEBHOOK_MAX_ATTEMPTS: number;
  readonly WEBHOOK_TIMEOUT_MS: number;
  readonly WEBHOOK_POLL_INTERVAL_MS: number;
}): WebhookConfig {
  const urls = (env.WEBHOOK_URL ?? '').split(',').map((url) => url.trim()).filter((url) => url.length > 0);
  for (const url of urls) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      parsed = null;
    }
    if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) throw new ConfigError(`Invalid configuration: WEBHOOK_URL holds ${JSON.stringify(url)}, not an http(s) URL`);
  }
  if (urls.length > 0 && !SECRET.test(env.WEBHOOK_SECRET ?? '')) {
    throw new ConfigError('Invalid configuration: WEBHOOK_SECRET (whsec_ and at least 24 bytes in base64) is required when WEBHOOK_URL is set');
  }
  return {
    receivers: [...new Set(urls)].map((url) => ({ id: createHash('sha256').update(url).digest('hex').slice(0, 24), url })),
    secret: urls.length > 0 ? (env.WEBHOOK_SECRET ?? '') : '',
    maxAttempts: env.WEBHOOK_MAX_ATTEMPTS,
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    pollIntervalMs: env.WEBHOOK_POLL_INTERVAL_MS,
  };
}
