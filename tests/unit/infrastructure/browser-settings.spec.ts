import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/infrastructure/config/config.js';
import { corsOriginsOf } from '../../../src/infrastructure/config/network-settings.js';

describe('configuration: CORS_ORIGINS and PUBLIC_API_URL', () => {
  it('defaults to no CORS and a relative OpenAPI server', () => {
    const config = loadConfig({});
    expect(config.corsOrigins).to.deep.equal([]);
    expect(config.publicApiUrl).to.equal(undefined);
  });

  it('reads comma-separated exact origins (duplicates once), or * alone', () => {
    expect(loadConfig({ CORS_ORIGINS: 'http://localhost:5173, https://app.example.com,http://localhost:5173' }).corsOrigins).to.deep.equal([
      'http://localhost:5173',
      'https://app.example.com',
    ]);
    expect(loadConfig({ CORS_ORIGINS: ' * ' }).corsOrigins).to.deep.equal(['*']);
    expect(corsOriginsOf('http://[::1]:8080')).to.deep.equal(['http://[::1]:8080']);
    expect(loadConfig({ PUBLIC_API_URL: 'https://api.example.com/v1' }).publicApiUrl).to.equal('https://api.example.com/v1');
  });

  const refused: Array<[string, string]> = [
    ['CORS_ORIGINS', 'https://app.example.com/'],
    ['CORS_ORIGINS', 'https://app.example.com/path'],
    ['CORS_ORIGINS', 'app.example.com'],
    ['CORS_ORIGINS', '*, https://app.example.com'],
    ['CORS_ORIGINS', 'https://*.example.com'],
    ['CORS_ORIGINS', 'null'],
    ['PUBLIC_API_URL', 'https://api.example.com/'],
    ['PUBLIC_API_URL', 'ftp://api.example.com'],
  ];
  for (const [variable, value] of refused) {
    it(`refuses ${variable}=${value} naming the variable`, () => {
      expect(() => loadConfig({ [variable]: value })).to.throw(ConfigError, variable);
    });
  }
});
