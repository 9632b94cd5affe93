import { token } from '../di-token.js';
import type { WebhookPorts } from './ports/webhook-ports.js';
import { DeliverWebhooksHandler, type WebhookSettings } from './use-cases/deliver-webhooks/deliver-webhooks.handler.js';

export type { WebhookReport, WebhookSettings } from './use-cases/deliver-webhooks/deliver-webhooks.handler.js';

/** The webhooks' use case: the account events sent to one receiver, at least once and in log order. */
export const webhookUseCases = (ports: WebhookPorts, settings: WebhookSettings) => ({ deliverWebhooks: new DeliverWebhooksHandler(ports, settings) }) as const;

export type WebhookUseCases = ReturnType<typeof webhookUseCases>;

/** The settings the use case runs with: made from WEBHOOK_* by the manifest (the tests' world binds its own). */
export const WEBHOOK_SETTINGS = token<WebhookSettings>('WebhookSettings');
