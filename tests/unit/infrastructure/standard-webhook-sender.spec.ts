import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { StandardWebhookSender, WebhookNotTaken } from '../../../src/infrastructure/webhooks/standard-webhook-sender.js';

const message = { id: 'evt_1', type: 'user.created', timestamp: new Date(0), data: { userId: 'u1' } };

describe("StandardWebhookSender's failures: why, in words, never the URL's secrets (issue 63)", () => {
  it('a URL with credentials, which fetch refuses quoting the URL: the reason is kept, the user, password, path and query are not', async () => {
    const sender = new StandardWebhookSender(`whsec_${randomBytes(32).toString('base64')}`, 1_000);
    const url = 'https://hook-user:hook-password@hooks.example.com/in/path-token?sig=query-token';
    const failure = await sender.send(url, message).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(WebhookNotTaken);
    const text = (failure as Error).message;
    expect(text).to.match(/^no answer: Request cannot be constructed from a URL that includes credentials/);
    for (const secret of ['hook-user', 'hook-password', 'path-token', 'query-token']) expect(text).to.not.include(secret);
    expect((failure as WebhookNotTaken).status).to.equal(undefined);
  });
});
