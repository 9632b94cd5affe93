import { Counter } from 'prom-client';
import { PORT_TOKENS } from '../application/ports/ports.js';
import { token } from '../application/di-token.js';
import { WEBHOOK_FEED, WEBHOOK_SENDER } from '../application/webhooks/ports/webhooks.port.js';
import { WEBHOOK_SETTINGS, type WebhookUseCases, webhookUseCases } from '../application/webhooks/webhook-use-cases.js';
import { type Capability, derivedOf } from '../infrastructure/container/capability.js';
import { CONFIG, LOGGER, METRICS, STORAGE } from '../infrastructure/container/tokens.js';
import { StandardWebhookSender } from '../infrastructure/webhooks/standard-webhook-sender.js';
import { StoreWebhookFeed } from '../infrastructure/webhooks/store-webhook-feed.js';
import { WebhookDispatchJob, type WebhookSignals } from '../infrastructure/webhooks/webhook-dispatch.job.js';
import { WEBHOOK_VARIABLES, WEBHOOKS } from '../infrastructure/webhooks/webhook-settings.js';
import { WEBHOOK_CURSORS, WEBHOOK_DEAD_LETTERS } from '../infrastructure/webhooks/webhook-tables.js';

/** The use case, made once in the container: its jobs share it. */
const WEBHOOK_USE_CASES = token<WebhookUseCases>('WebhookUseCases');
/** Each delivery's outcome, counted on the service's metrics (`account_webhook_deliveries_total`). */
const WEBHOOK_SIGNALS = token<WebhookSignals>('WebhookSignals');

/**
 * Webhooks: the account events of the log (the core's public ones, and those a capability declares with `webhook`)
 * sent to each receiver of WEBHOOK_URL, signed (Standard Webhooks), at least once and in log order, each receiver
 * on its own cursor, lease and retries, with dead letters.
 */
export const webhooks: Capability<WebhookUseCases> = {
  name: 'webhooks',
  squad: '@account-service/integrations',
  folders: ['src/application/webhooks', 'src/infrastructure/webhooks'],
  tables: [WEBHOOK_CURSORS, WEBHOOK_DEAD_LETTERS],
  events: {},
  settings: WEBHOOK_VARIABLES,
  derived: WEBHOOKS,
  errors: {},
  bind: (bindPort) => {
    bindPort(WEBHOOK_FEED, (get) => new StoreWebhookFeed(get(STORAGE).store));
    // No receiver configured: nothing is ever sent, so nothing signs.
    bindPort(WEBHOOK_SENDER, (get) => {
      const { receivers, secret, timeoutMs } = derivedOf(get(CONFIG), WEBHOOKS);
      return receivers.length > 0 ? new StandardWebhookSender(secret, timeoutMs) : { send: () => Promise.reject(new Error('no WEBHOOK_URL is configured')) };
    });
    bindPort(WEBHOOK_SETTINGS, (get) => {
      const { receivers, maxAttempts, timeoutMs } = derivedOf(get(CONFIG), WEBHOOKS);
      return { receivers, maxAttempts, baseBackoffMs: 1_000, maxBackoffMs: 300_000, leaseMs: Math.max(60_000, 4 * timeoutMs), sendTimeoutMs: timeoutMs, batchSize: 20, settleMs: 1_000 };
    });
    bindPort(WEBHOOK_USE_CASES, (get) =>
      webhookUseCases({ webhookFeed: get(WEBHOOK_FEED), webhookSender: get(WEBHOOK_SENDER), clock: get(PORT_TOKENS.clock) }, get(WEBHOOK_SETTINGS)),
    );
    bindPort(WEBHOOK_SIGNALS, (get) => {
      const deliveries = new Counter({
        name: 'account_webhook_deliveries_total',
        help: 'Webhook deliveries by outcome: delivered (a 2xx), retried (a failure, tried again with backoff), dead_lettered (given up after WEBHOOK_MAX_ATTEMPTS)',
        labelNames: ['outcome'],
        registers: [get(METRICS).registry],
      });
      return (outcome, count) => deliveries.inc({ outcome }, count);
    });
  },
  useCases: (get) => get(WEBHOOK_USE_CASES),
  jobs: (get) => {
    const { pollIntervalMs } = derivedOf(get(CONFIG), WEBHOOKS);
    const { receivers } = get(WEBHOOK_SETTINGS);
    // Counted from start (0 until a delivery), whether or not a receiver is configured.
    const signals = get(WEBHOOK_SIGNALS);
    return receivers.map((receiver) => new WebhookDispatchJob(get(WEBHOOK_USE_CASES).deliverWebhooks, receiver, pollIntervalMs, get(LOGGER), signals));
  },
  commands: [],
};
