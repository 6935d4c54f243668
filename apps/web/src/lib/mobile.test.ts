import { describe, expect, it } from 'vitest';
import { isMobileUserAgent, mobileRedirectTarget } from './mobile';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

describe('mobileRedirectTarget', () => {
  it('leaves desktop browsers alone', () => {
    expect(isMobileUserAgent(DESKTOP)).toBe(false);
    expect(mobileRedirectTarget(DESKTOP, '/knowledge', '?invitationCode=A', '/activity')).toBeNull();
  });
  it('sends invitation and integral codes to /activity with the channel', () => {
    expect(mobileRedirectTarget(IPHONE, '/', '?channelid=c1&invitationCode=INV', '/m')).toBe('/activity?channelid=c1&invitationCode=INV');
    expect(mobileRedirectTarget(IPHONE, '/topic', '?integralCode=P9', '/m')).toBe('/activity?integralCode=P9');
  });
  it('does not loop once on /activity with the code', () => {
    expect(mobileRedirectTarget(IPHONE, '/activity', '?channelid=c1&invitationCode=INV', '/m')).toBeNull();
  });
  it('sends other paths to the mobile home page with channelid', () => {
    expect(mobileRedirectTarget(IPHONE, '/knowledge', '?channelid=c2', '/activity')).toBe('/activity?channelid=c2');
    expect(mobileRedirectTarget(IPHONE, '/', '', 'https://m.example.com/home?x=1')).toBe('https://m.example.com/home?x=1');
    expect(mobileRedirectTarget(IPHONE, '/', '?channelid=z', 'https://m.example.com/home')).toBe('https://m.example.com/home?channelid=z');
  });
  it('keeps /activity itself', () => {
    expect(mobileRedirectTarget(IPHONE, '/activity', '?channelid=c2', '/m')).toBeNull();
  });
});
