import { describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { selfUrl } from './self-url.js';

const at = (address: string, port = 3000): AddressInfo => ({ address, port, family: address.includes(':') ? 'IPv6' : 'IPv4' });

describe('selfUrl', () => {
  it.each([
    ['127.0.0.1', 'http://127.0.0.1:3000'],
    ['0.0.0.0', 'http://127.0.0.1:3000'],
    ['::', 'http://[::1]:3000'],
    ['::1', 'http://[::1]:3000'],
    ['10.0.0.5', 'http://10.0.0.5:3000'],
  ])('a hub listening on %s calls itself at %s', (address, url) => expect(selfUrl(at(address))).toBe(url));

  it.each([[null], ['/tmp/hub.sock']])('refuses %j (not a TCP listener)', (address) => {
    expect(() => selfUrl(address)).toThrow(/not listening on a TCP port/);
  });
});
