import { Webhook } from 'standardwebhooks';
import type { WebhookMessage, WebhookSender } from '../../application/webhooks/ports/webhooks.port.js';

/** A delivery the receiver did not take: its answer's `status` (absent when none came), and why in words. */
export class WebhookNotTaken extends Error {
  override readonly name = 'WebhookNotTaken';

  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The URL's parts that may hold a secret (the whole URL, credentials, the query), as a driver message could quote them. */
const secretsOf = (url: string): string[] => {
  try {
    const parsed = new URL(url);
    return [url, parsed.href, parsed.password, parsed.username, parsed.search.slice(1)].filter((part) => part.length > 2);
  } catch {
    return [url];
  }
};

/** Why a send got no answer, in words (`connect ECONNREFUSED 127.0.0.1:9`, a TLS error), never quoting the URL's secrets. */
function noAnswer(error: unknown, url: string, timeoutMs: number): WebhookNotTaken {
  if (error instanceof Error && error.name === 'TimeoutError') return new WebhookNotTaken(`no answer within ${timeoutMs} ms`);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = cause instanceof Error ? (cause as { code?: unknown }).code : undefined;
  const said = cause instanceof Error ? cause.message || (typeof code === 'string' ? code : cause.name) : String(cause);
  return new WebhookNotTaken(`no answer: ${secretsOf(url).reduce((text, secret) => text.split(secret).join('[redacted]'), said).slice(0, 300)}`);
}

/**
 * Webhooks as the Standard Webhooks specification has them (the `standardwebhooks` package signs): a JSON body
 * `{ type, timestamp, data }`, and the headers `webhook-id` (the event id, stable across retries), `webhook-timestamp`
 * (seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` under WEBHOOK_SECRET). A receiver answering anything
 * but 2xx, or not within the timeout, fails the delivery (retried by the use case) with a `WebhookNotTaken`: `the
 * receiver answered 503` (with its status), `no answer within 5000 ms`, or `no answer: <the network's cause>`.
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
    let response: Response;
    try {
      response = await fetch(url, {
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
    } catch (error) {
      throw noAnswer(error, url, this.timeoutMs);
    }
    await response.body?.cancel();
    if (response.status < 200 || response.status > 299) throw new WebhookNotTaken(`the receiver answered ${response.status}`, response.status);
  }
}
