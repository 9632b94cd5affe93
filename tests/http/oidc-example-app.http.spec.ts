import { expect } from 'chai';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { admin } from '../support/api-keys.js';
import { postJson } from '../support/http-client.js';
import { Browser, freePort } from '../support/oidc-browser.js';
import { type TestService, startTestService } from '../support/test-service.js';

const ROOT = join(import.meta.dirname, '..', '..');
const PASSWORD = 'correct-horse-battery-staple';

/** A docs example, run as docs/oidc-provider.md says, until it says it listens. */
export const runExample = async (file: string, env: Record<string, string>): Promise<ChildProcess> => {
  const child = spawn(process.execPath, [join(ROOT, 'docs', 'examples', file)], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const [first] = (await Promise.race([once(child.stdout, 'data'), once(child, 'exit').then(() => [Buffer.from(`exited: ${errors}`)])])) as [Buffer];
  if (first.toString().startsWith('exited')) throw new Error(first.toString());
  return child;
};

describe('Docs: the app of docs/oidc-provider.md signs a person in through the service (docs/examples/sign-in-app.mjs, openid-client)', function () {
  this.timeout(60_000);
  let service: TestService;
  let app: ChildProcess | undefined;
  after(async () => {
    app?.kill();
    await service?.dispose();
  });

  it('registers with the CLI, sends the browser to the pages, and shows who signed in; a callback it did not start is refused', async () => {
    const [port, appPort] = [await freePort(), await freePort()];
    const issuer = `http://localhost:${port}`;
    service = await startTestService({ PORT: String(port), PUBLIC_API_URL: issuer });
    const userId = (await postJson(service.url, '/auth/sign-up', { name: 'Grace', lastname: 'Hopper', email: 'grace@example.com', password: PASSWORD })).body.data.user.id as string;
    const made = JSON.parse((await admin(service.dataDir, ['create-client', '--name', 'My app', '--redirect-uri', `http://localhost:${appPort}/callback`])).out[0] ?? '{}') as { client_id: string; client_secret: string };
    app = await runExample('sign-in-app.mjs', { ISSUER: issuer, CLIENT_ID: made.client_id, CLIENT_SECRET: made.client_secret, PORT: String(appPort) });
    const atApp = new Browser(`http://localhost:${appPort}`);
    const atProvider = new Browser(issuer);
    const start = await atApp.go('/');
    expect(start.status).to.equal(302);
    let step = await atProvider.follow(await atProvider.go(start.headers.get('location') ?? ''));
    for (const fields of [{ email: 'grace@example.com', password: PASSWORD }, { decision: 'allow' }]) step = await atProvider.submit(await (step.page as Response).text(), fields);
    const callback = step.url as URL;
    expect(`${callback.origin}${callback.pathname}`).to.equal(`http://localhost:${appPort}/callback`);
    const forged = await new Browser(`http://localhost:${appPort}`).go(callback.href);
    expect([forged.status, await forged.text()], 'another browser, the same callback').to.deep.equal([400, 'This sign-in was not started here, or it expired: start again at /\n']);
    const shown = await atApp.go(callback.href);
    expect([shown.status, await shown.text()]).to.deep.equal([200, `Signed in as Grace Hopper <grace@example.com> (account ${userId}, by pwd)\n`]);
  });
});
