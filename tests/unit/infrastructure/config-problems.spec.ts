import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/infrastructure/config/config.js';
import { CAPABILITIES } from '../../../src/capabilities/index.js';
import { imageEnvironment, readCompose } from '../../support/compose-file.js';

/** The ConfigError this environment makes loadConfig throw, with the manifests every composition root gives it. */
const refusal = (env: Record<string, string>): ConfigError => {
  try {
    loadConfig(env, CAPABILITIES);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
};

const SIGNING_KEY_COMMAND = 'openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt > jwt.pem';
const SECRET_COMMAND = 'openssl rand -base64 48';
const WEBHOOK_SECRET_COMMAND = 'echo "whsec_$(openssl rand -base64 32)"';
const WEBHOOK = { WEBHOOK_URL: 'https://hooks.example/in' };

describe('Configuration problems, reported all at once', () => {
  it('production with nothing set: mail, the signing key and the personal-data key in one error, each key with its command', () => {
    const error = refusal({ NODE_ENV: 'production' });
    expect(error.problems).to.have.length(3);
    const [mail, signing, personal] = error.problems;
    expect(mail).to.include('SMTP_URL is required when NODE_ENV=production').and.include('MAIL_TRANSPORT=file');
    expect(signing).to.include('JWT_PRIVATE_KEY_FILE (or JWT_PRIVATE_KEY) is required when NODE_ENV=production').and.include(SIGNING_KEY_COMMAND);
    expect(personal).to.include('PERSONAL_DATA_KEY (or PERSONAL_DATA_KEY_FILE) is required when NODE_ENV=production').and.include(SECRET_COMMAND);
    expect(error.message.split('\n')).to.deep.equal(['Invalid configuration, 3 problems:', ...error.problems.map((problem) => `  - ${problem}`)]);
  });

  it('lists refused values, broken rules and capability settings together, in one message', () => {
    const error = refusal({
      PORT: 'eighty',
      STORAGE: 'memory',
      WORKERS: '2',
      HEADERS_TIMEOUT_MS: '60000',
      RATE_LIMIT_STORE: 'redis',
      API_KEY_RATE_LIMIT_PER_MINUTE: '0',
      ...WEBHOOK,
    });
    const expected = ['PORT', 'WORKERS above 1', 'HEADERS_TIMEOUT_MS must not exceed', 'REDIS_URL is required', 'API_KEY_RATE_LIMIT_PER_MINUTE', 'WEBHOOK_SECRET is required'];
    expect(error.problems).to.have.length(expected.length);
    for (const [index, start] of expected.entries()) expect(error.problems[index], start).to.include(start);
    for (const problem of error.problems) expect(error.message).to.include(problem);
  });

  it('one problem stays one line, as before', () => {
    const error = refusal({ MAIL_TRANSPORT: 'smtp' });
    expect(error.message).to.equal('Invalid configuration: SMTP_URL is required when MAIL_TRANSPORT=smtp');
    expect(error.problems).to.deep.equal(['SMTP_URL is required when MAIL_TRANSPORT=smtp']);
  });

  it('a variable set but refused is reported as wrong, not also as missing', () => {
    const error = refusal({ NODE_ENV: 'production', SMTP_URL: 'ftp://relay.example', JWT_PRIVATE_KEY_FILE: '/run/secrets/jwt.pem', PERSONAL_DATA_KEY: 'too short' });
    expect(error.problems).to.have.length(2);
    expect(error.message).to.include('SMTP_URL must start with smtp://').and.not.include('SMTP_URL is required');
    expect(error.message).to.include('PERSONAL_DATA_KEY must be at least 32 characters').and.not.include('PERSONAL_DATA_KEY (or PERSONAL_DATA_KEY_FILE) is required');
  });

  it('a secret too short names the command that makes one, and never its value', () => {
    for (const variable of ['PERSONAL_DATA_KEY', 'REFRESH_TOKEN_SECRET', 'MFA_SECRET_KEY']) {
      const error = refusal({ [variable]: 'hunter2-not-long-enough' });
      expect(error.problems, variable).to.deep.equal([`${variable} must be at least 32 characters (make one with: ${SECRET_COMMAND})`]);
      expect(error.message, variable).to.not.include('hunter2');
    }
  });

  describe('WEBHOOK_SECRET', () => {
    it('set but malformed: says the expected form and how to make one, not that it is missing, and never its value', () => {
      for (const secret of ['mysecret', 'whsec_short', `whsec_${'A'.repeat(31)}`, `${randomBytes(32).toString('base64')}`]) {
        const error = refusal({ ...WEBHOOK, WEBHOOK_SECRET: secret });
        expect(error.problems, secret).to.have.length(1);
        expect(error.message, secret).to.include('WEBHOOK_SECRET is set but not of the expected form').and.include('`whsec_` followed by base64 of at least 24 random bytes');
        expect(error.message, secret).to.include(WEBHOOK_SECRET_COMMAND).and.not.include('is required').and.not.include(secret);
      }
    });

    it('absent with WEBHOOK_URL: required, with the same form and command', () => {
      const error = refusal(WEBHOOK);
      expect(error.problems).to.deep.equal([`WEBHOOK_SECRET is required when WEBHOOK_URL is set: \`whsec_\` followed by base64 of at least 24 random bytes; make one with: ${WEBHOOK_SECRET_COMMAND}`]);
    });

    it('takes what the command makes, and reports a wrong URL together with a wrong secret', () => {
      expect(() => loadConfig({ ...WEBHOOK, WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}` }, CAPABILITIES)).to.not.throw();
      expect(() => loadConfig({ ...WEBHOOK, WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}` }, CAPABILITIES)).to.not.throw();
      const error = refusal({ WEBHOOK_URL: 'ftp://hooks.example/in', WEBHOOK_SECRET: 'mysecret' });
      expect(error.problems).to.have.length(2);
      expect(error.problems[0]).to.include('WEBHOOK_URL holds "ftp://hooks.example/in", not an http(s) URL');
      expect(error.problems[1]).to.include('WEBHOOK_SECRET is set but not of the expected form');
    });
  });

  describe('HOST', () => {
    it('is 127.0.0.1 by default: a development start is reachable from this machine only', () => {
      expect(loadConfig({}).http.host).to.equal('127.0.0.1');
      expect(loadConfig({ HOST: '0.0.0.0' }).http.host).to.equal('0.0.0.0');
    });

    it('is 0.0.0.0 in the image and set so in every instance of the Compose files', () => {
      const image = imageEnvironment('Dockerfile');
      expect(image['HOST']).to.equal('0.0.0.0');
      for (const path of ['docker-compose.yml', 'docs/scale-out/compose.yaml']) {
        const instances = Object.entries(readCompose(path).services).filter(([, service]) => service.build !== undefined);
        expect(instances, path).to.not.be.empty;
        for (const [name, service] of instances) expect(service.environment?.['HOST'], `${path}: ${name}`).to.equal('0.0.0.0');
      }
    });
  });
});
