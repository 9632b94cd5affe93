import { expect } from 'chai';
import { admin, apiKeyFor } from '../support/api-keys.js';
import { http } from '../support/http-client.js';
import { startTestService } from '../support/test-service.js';

/**
 * A capability's settings are its manifest's (issue 62): validated at start with the core's, and read by the
 * capability. API keys' API_KEY_RATE_LIMIT_PER_MINUTE, end to end.
 */
describe("HTTP: a capability's own setting (API_KEY_RATE_LIMIT_PER_MINUTE, declared by the API keys' manifest)", function () {
  this.timeout(30_000);

  it('limits a key to what the variable says: of 5 introspections at a limit of 3, 3 answer and 2 are 429 KEY_RATE_LIMITED', async () => {
    const service = await startTestService({ API_KEY_RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_MAX: '10000' });
    try {
      const { key } = await apiKeyFor(service.dataDir, 'introspect');
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const answer = await http(service.url, '/oauth/introspect', { body: JSON.stringify({ token: 'not-a-token' }), headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` } });
        statuses.push(answer.status);
        if (answer.status === 429) expect(answer.body.message).to.equal('Too many requests');
      }
      expect(statuses).to.deep.equal([200, 200, 200, 429, 429]);
    } finally {
      await service.dispose();
    }
  });

  it('refuses to start (and the command line to run) with a value out of its bounds, naming the variable', async () => {
    const refused = await startTestService({ API_KEY_RATE_LIMIT_PER_MINUTE: '0' }).then(
      async (service) => {
        await service.dispose();
        return null;
      },
      (error: unknown) => error,
    );
    expect(String(refused)).to.match(/API_KEY_RATE_LIMIT_PER_MINUTE/);
    // The command line stops before opening anything: the problem on stderr, exit 1, nothing on stdout.
    const cli = await admin('/nonexistent-data-dir-never-opened', ['list-keys'], { API_KEY_RATE_LIMIT_PER_MINUTE: 'many' });
    expect([cli.code, cli.out]).to.deep.equal([1, []]);
    expect(cli.err.join('\n')).to.match(/API_KEY_RATE_LIMIT_PER_MINUTE/);
  });
});
