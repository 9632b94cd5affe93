import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { StandardWebhookSender } from '../../src/infrastructure/webhooks/standard-webhook-sender.js';
import { aSignUpBody } from '../support/builders.js';
import { postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'operators.md'), 'utf8');
const section = DOC.slice(DOC.indexOf('## Signed webhooks'), DOC.indexOf('## The admin API'));

/** The one fenced block of `lang` in the webhooks section whose text includes `marker`. */
const blockOf = (lang: string, marker: string): string => {
  const blocks = [...section.matchAll(new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```$', 'gm'))].map((match) => match[1]!).filter((block) => block.includes(marker));
  expect(blocks, `docs/operators.md, Signed webhooks: one \`\`\`${lang} block with ${marker}`).to.have.length(1);
  return blocks[0]!;
};

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Waits up to `ms` for `done`, polling. */
async function until(done: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(50);
  }
}

describe("docs/operators.md's webhook receiver, run as written, sent a real signed webhook by the service (issue 63)", function () {
  this.timeout(30_000);
  // Under the repository, so that `import 'standardwebhooks'` resolves to its node_modules as in a receiver's project.
  const dir = join(ROOT, '.tmp', `webhook-receiver-${process.pid}`);
  let receiver: ChildProcess | undefined;
  let service: TestService | undefined;
  let output = '';
  let url = '';
  let secret = '';

  before(async () => {
    secret = execFileSync('sh', ['-c', blockOf('sh', 'openssl rand')], { encoding: 'utf8' }).trim();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'receiver.mjs'), blockOf('js', "from 'standardwebhooks'"));
    const port = await freePort();
    url = `http://127.0.0.1:${port}/`;
    receiver = spawn(process.execPath, [join(dir, 'receiver.mjs')], { env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    receiver.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    receiver.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    for (let i = 0; i < 100; i++) {
      const answer = await fetch(url, { method: 'POST', body: '{}' }).then((response) => response.status, () => 0);
      if (answer !== 0) break;
      expect(receiver.exitCode, output).to.equal(null);
      await sleep(50);
    }
  });
  after(async () => {
    await service?.dispose();
    if (receiver && receiver.exitCode === null) {
      const exited = once(receiver, 'exit');
      receiver.kill('SIGKILL');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const printed = () => output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { id: string; type: string; data: Record<string, unknown> });

  it("the doc's secret command makes one the service accepts (whsec_ and the base64 of 32 bytes)", () => {
    expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).to.have.length(32);
  });

  it('an unsigned request gets 400, and nothing is handled', async () => {
    const answer = await fetch(url, { method: 'POST', headers: { 'webhook-id': 'msg_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,Zm9yZ2Vk' }, body: '{"type":"user.deleted"}' });
    expect(answer.status).to.equal(400);
    expect(printed()).to.deep.equal([]);
  });

  it("the service's sign-up reaches it verified, printed once; the same webhook-id again is answered 2xx and not handled twice", async () => {
    service = await startTestService({ STORAGE: 'memory', WEBHOOK_URL: url, WEBHOOK_SECRET: secret, WEBHOOK_POLL_INTERVAL_MS: '200' });
    await sleep(400);
    const up = await postJson(service.url, '/auth/sign-up', aSignUpBody({ email: `receiver-${randomUUID()}@example.com` }));
    expect(up.status).to.equal(201);
    await until(() => printed().length >= 1, 10_000, 'user.created printed by the receiver');
    const [created] = printed();
    expect(created).to.deep.include({ type: 'user.created', data: { userId: up.body.data.user.id } });

    const again = new StandardWebhookSender(secret, 5_000);
    await again.send(url, { id: created!.id, type: 'user.created', timestamp: new Date(), data: { userId: up.body.data.user.id } });
    await sleep(200);
    expect(printed().map((event) => event.id)).to.deep.equal([created!.id]);
  });

  it('a webhook signed with another secret gets 400', async () => {
    const other = new StandardWebhookSender(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, 5_000);
    const refused = await other.send(url, { id: 'msg_other', type: 'user.deleted', timestamp: new Date(), data: { userId: 'x' } }).then(() => null, (error: Error) => error.message);
    expect(refused).to.equal('the receiver answered 400');
    expect(printed().map((event) => event.id)).to.not.include('msg_other');
  });
});
