import { expect } from 'chai';
import { deviceOf, networkOf, sameDevice, shownDevice } from '../../../src/domain/device.js';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const EDGE_WINDOWS = `${CHROME_WINDOWS} Edg/131.0.0.0`;

describe('A new device: the device and the network a sign-in comes from', () => {
  it('names the browser and the system, not the version, so an update is no new device', () => {
    expect([FIREFOX_LINUX, CHROME_WINDOWS, SAFARI_IPHONE, EDGE_WINDOWS, 'curl/8.5.0', '', null].map(deviceOf)).to.deep.equal([
      'Firefox on Linux', 'Chrome on Windows', 'Safari on iOS', 'Edge on Windows', 'an unknown device', 'an unknown device', 'an unknown device',
    ]);
    expect(deviceOf(CHROME_WINDOWS.replace('131.0.0.0', '132.0.1.2'))).to.equal(deviceOf(CHROME_WINDOWS));
  });

  it('names a device in fixed words only: no text of the user agent, nor of an event recorded before (issue 61)', () => {
    const crafted = ['Call-+1-555-0100-or-visit-evil.example', 'Call-+1-555-0100 (Windows NT 10.0)', 'evil.example/1.0 Firefox-ish'];
    expect(crafted.map(deviceOf)).to.deep.equal(['an unknown device', 'an unknown browser on Windows', 'an unknown device']);
    expect(['Safari on iOS', 'an unknown browser on Windows', 'Call-+1-555-0100-or-visit-evil.example'].map(shownDevice)).to.deep.equal([
      'Safari on iOS', 'an unknown browser on Windows', 'an unknown device',
    ]);
  });

  it('takes IPv4 by /24 and IPv6 by /48, compressed or not, and IPv4-mapped addresses as IPv4', () => {
    expect(['203.0.113.7', '::ffff:203.0.113.9', '2001:db8:abcd:12::1', '2001:0db8:abcd:0099:0:0:0:2', '2001:db8::1', '::1', 'not an address', null].map(networkOf)).to.deep.equal([
      '203.0.113.0/24', '203.0.113.0/24', '2001:db8:abcd::/48', '2001:db8:abcd::/48', '2001:db8:0::/48', '0:0:0::/48', null, null,
    ]);
  });

  it('is the same device only when both the device and the network match', () => {
    const home = { clientIp: '203.0.113.7', userAgent: FIREFOX_LINUX };
    expect(sameDevice(home, { clientIp: '203.0.113.200', userAgent: FIREFOX_LINUX })).to.equal(true);
    expect(sameDevice(home, { clientIp: '198.51.100.7', userAgent: FIREFOX_LINUX })).to.equal(false);
    expect(sameDevice(home, { clientIp: '203.0.113.7', userAgent: CHROME_WINDOWS })).to.equal(false);
    expect(sameDevice({ clientIp: '203.0.113.7', userAgent: 'curl/8.5.0' }, { clientIp: '203.0.113.7', userAgent: 'Wget/1.21' }), 'though both are shown as an unknown device').to.equal(false);
  });
});
