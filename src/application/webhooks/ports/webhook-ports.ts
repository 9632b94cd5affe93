import type { Ports } from '../../ports/ports.js';
import type { WebhookFeed, WebhookSender } from './webhooks.port.js';

/** What the webhooks' use case reads: the capability's own ports (the feed of the log, the signed sender) and the clock. */
export interface WebhookPorts extends Pick<Ports, 'clock'> {
  readonly webhookFeed: WebhookFeed;
  readonly webhookSender: WebhookSender;
}
