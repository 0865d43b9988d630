import { describe, expect, it } from '@jest/globals';
import { loadConfig } from './config.js';
import { foreignRequest, servedHosts, servedOrigins } from './site.js';

const TOKENS = { HUB_CLIENT_TOKEN: 'c', HUB_AGENT_TOKEN: 'a' };
const open = loadConfig({});

describe('servedHosts / servedOrigins (issue 27)', () => {
  it.each([
    ['open mode: the loopback names with the port', {}, 3000, ['127.0.0.1:3000', 'localhost:3000', '[::1]:3000']],
    ['open mode on port 80: as browsers send it, without the port', {}, 80, ['127.0.0.1', 'localhost', '[::1]']],
    ['open mode on another loopback address: that one too', { HUB_HOST: '127.0.0.2' }, 3000, ['127.0.0.1:3000', 'localhost:3000', '[::1]:3000', '127.0.0.2:3000']],
    ['open mode with HUB_ALLOWED_HOSTS', { HUB_ALLOWED_HOSTS: 'hub.example.com' }, 3000, ['127.0.0.1:3000', 'localhost:3000', '[::1]:3000', 'hub.example.com']],
    ['tokens: any Host', TOKENS, 3000, undefined],
    ['tokens on 0.0.0.0 with HUB_ALLOWED_HOSTS: loopback and those', { ...TOKENS, HUB_HOST: '0.0.0.0', HUB_ALLOWED_HOSTS: 'hub.example.com' }, 3000, ['127.0.0.1:3000', 'localhost:3000', '[::1]:3000', 'hub.example.com']],
  ])('%s', (_name, env, port, hosts) => {
    expect(servedHosts(loadConfig(env), port)).toEqual(hosts);
  });

  it('origins: http and https of every served Host, or of the request’s own Host when any is served, and HUB_ALLOWED_ORIGINS', () => {
    expect(servedOrigins(open, ['localhost:3000'], 'localhost:3000')).toEqual(['http://localhost:3000', 'https://localhost:3000']);
    const tokens = loadConfig({ ...TOKENS, HUB_ALLOWED_ORIGINS: 'http://localhost:5173' });
    expect(servedOrigins(tokens, undefined, 'Hub.Internal:8080')).toEqual(['http://hub.internal:8080', 'https://hub.internal:8080', 'http://localhost:5173']);
    expect(servedOrigins(tokens, undefined, undefined)).toEqual(['http://localhost:5173']);
  });
});

describe('foreignRequest: why a request is refused (issue 27)', () => {
  const tokens = loadConfig(TOKENS);
  it.each([
    ['open, own Host, no Origin', open, '127.0.0.1:3000', undefined, null],
    ['open, localhost and its own Origin', open, 'localhost:3000', 'http://localhost:3000', null],
    ['open, the other loopback name’s Origin', open, '127.0.0.1:3000', 'http://localhost:3000', null],
    ['open, upper case Host', open, 'LOCALHOST:3000', undefined, null],
    ['open, a rebinding name', open, 'evil.example:3000', 'http://evil.example:3000', /HUB_ALLOWED_HOSTS/],
    ['open, a rebinding name without Origin (a GET)', open, 'evil.example:3000', undefined, /DNS rebinding/],
    ['open, loopback on another port', open, 'localhost:3001', undefined, /localhost:3000/],
    ['open, no Host', open, undefined, undefined, /имя/],
    ['open, a malformed Host', open, 'a b', undefined, /имя/],
    ['open, a foreign Origin', open, '127.0.0.1:3000', 'https://evil.example', /HUB_ALLOWED_ORIGINS/],
    ['open, Origin null (a sandboxed frame, a file)', open, '127.0.0.1:3000', 'null', /null/],
    ['open, another local server’s page', open, '127.0.0.1:3000', 'http://127.0.0.1:5173', /HUB_ALLOWED_ORIGINS/],
    ['tokens, any Host', tokens, 'hub.internal:3000', undefined, null],
    ['tokens, the Host’s own Origin', tokens, 'hub.internal:3000', 'https://hub.internal:3000', null],
    ['tokens, a foreign Origin', tokens, 'hub.internal:3000', 'https://evil.example', /HUB_ALLOWED_ORIGINS/],
    ['tokens, a rebinding name’s own Origin (no token reaches such a page)', tokens, 'evil.example:3000', 'http://evil.example:3000', null],
  ])('%s', (_name, config, host, origin, refusal) => {
    const detail = foreignRequest(config, 3000, host, origin);
    if (refusal === null) expect(detail).toBeUndefined();
    else expect(detail).toMatch(refusal);
  });
});
