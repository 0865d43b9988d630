import type { AddressInfo } from 'node:net';

/** Where this hub listens, as seen from inside: an unspecified address (0.0.0.0, ::) becomes loopback. */
export function selfUrl(address: AddressInfo | string | null): string {
  if (!address || typeof address === 'string') throw new Error('the hub is not listening on a TCP port; /mcp needs its own address');
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}
