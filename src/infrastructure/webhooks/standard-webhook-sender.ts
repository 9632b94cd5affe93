import { Webhook } from 'standardwebhooks';
import type { WebhookMessage, WebhookSender } from '../../application/webhooks/ports/webhooks.port.js';

/**
 * Webhooks as the Standard Webhooks specification has them (the `standardwebhooks` package signs): a JSON body
 * `{ type, timestamp, data }`, and the headers `webhook-id` (the event id, stable across retries), `webhook-timestamp`
 * (seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` under WEBHOOK_SECRET). A receiver answering anything
 * but 2xx, or not within the timeout, fails the delivery (retried by the use case).
 */
export class StandardWebhookSender implements WebhookSender {
  private readonly signer: Webhook;

  constructor(
    secret: string,
    private readonly timeoutMs: number,
  ) {
    this.signer = new Webhook(secret);
  }

  async send(url: string, message: WebhookMessage): Promise<void> {
    const timestamp = new Date(Math.floor(Date.now() / 1000) * 1000);
    const body = JSON.stringify({ type: message.type, timestamp: message.timestamp.toISOString(), data: message.data });
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': message.id,
        'webhook-timestamp': String(timestamp.getTime() / 1000),
        'webhook-signature': this.signer.sign(message.id, timestamp, body),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    await response.body?.cancel();
    if (response.status < 200 || response.status > 299) throw new Error(`the receiver answered ${response.status}`);
  }
}
