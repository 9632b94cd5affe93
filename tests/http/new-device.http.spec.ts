import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { aSignUpBody } from '../support/builders.js';
import { http, postJson } from '../support/http-client.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { mailedTexts, verifyByMail } from '../support/verify-by-mail.js';

const PASSWORD = 'analytical engine 1843';
const LAPTOP = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' };
const PHONE = { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Version/18.1 Mobile/15E148 Safari/604.1' };
const SUBJECT = 'A new sign-in to your account';
/** Crafted user agents, each a device of its own (an unknown browser is told apart by its first word), so that every one of simultaneous sign-ins asks for a notice. */
const CRAFTED = (n: number) => ({ 'user-agent': `Call${n}-+1-555-0100-or-visit-evil.example/${n}` });

describe('HTTP: a sign-in from a new device mails the owner, once, from the outbox (NEW_DEVICE_NOTICE, on by default)', function () {
  this.timeout(30_000);
  let service: TestService;
  before(async () => {
    service = await startTestService({ RATE_LIMIT_MAX: '10000' });
  });
  after(async () => service.dispose());

  const noticesTo = async (email: string): Promise<string[]> => {
    const feed = async () => {
      const access = (await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD }, LAPTOP)).body.data.accesstoken as string;
      return (await http(service.url, '/auth/me/activity?limit=50', { method: 'GET', headers: { authorization: `Bearer ${access}` } })).body.data.events as { type: string; useragent: string | null }[];
    };
    return (await feed()).filter((event) => event.type === 'new_device_signed_in').map((event) => String(event.useragent));
  };

  it('is quiet for the device and network of a live session, and mails once for a new one', async () => {
    const email = `ada-${randomUUID()}@example.com`;
    expect((await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }), LAPTOP)).status).to.equal(201);
    await verifyByMail(service, email);
    expect((await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD }, LAPTOP)).status).to.equal(201);
    expect((await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD }, PHONE)).status).to.equal(201);
    expect((await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD }, PHONE)).status).to.equal(201);
    expect(await noticesTo(email), 'one notice: the phone, the first time').to.deep.equal([PHONE['user-agent']]);
    const [notice = ''] = await mailedTexts(service, email, SUBJECT, 1);
    expect(notice).to.include('Safari on iOS').and.include('127.0.0.0/24').and.include('/sessions');
  });

  /** Every notice mailed to `email` once the outbox is drained (the dispatch run twice: all due mails were claimed). */
  const drainedNotices = async (email: string): Promise<string[]> => {
    await service.deliverMail();
    await service.deliverMail();
    return mailedTexts(service, email, SUBJECT, 0);
  };

  it('sends none to an address nobody proved (issue 61)', async () => {
    const email = `unproven-${randomUUID()}@example.com`;
    expect((await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }), LAPTOP)).status).to.equal(201);
    for (const n of [1, 2, 3]) expect((await postJson(service.url, '/auth/sign-in', { email, password: PASSWORD }, CRAFTED(n))).status).to.equal(201);
    expect(await drainedNotices(email)).to.deep.equal([]);
    expect(await noticesTo(email), 'no notice asked for').to.deep.equal([]);
  });

  it('caps the notices per address (VERIFICATION_MAIL_MAX_PER_ADDRESS, 3) and never mails the text of a user agent (issue 61)', async () => {
    const email = `crafted-${randomUUID()}@example.com`;
    expect((await postJson(service.url, '/auth/sign-up', aSignUpBody({ email }), LAPTOP)).status).to.equal(201);
    await verifyByMail(service, email);
    const signIns = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => postJson(service.url, '/auth/sign-in', { email, password: PASSWORD }, CRAFTED(n))));
    expect(signIns.map((res) => res.status)).to.deep.equal([201, 201, 201, 201, 201, 201]);
    const mailed = await drainedNotices(email);
    expect(mailed, 'three of six notices mailed').to.have.length(3);
    for (const text of mailed) expect(text).to.include('from an unknown device').and.not.match(/evil|555-0100|Call/);
  });
});
