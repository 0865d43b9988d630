/**
 * Which Host and Origin headers the hub answers (issue 27, decision 0100). A web page can reach a
 * hub on loopback in two ways: by DNS rebinding (its own name resolves to 127.0.0.1, so the browser
 * sends the page's name as Host and treats the hub as the page's origin) and by a cross-site request
 * (the browser sends the page's Origin). In open mode the Host must be a loopback name with the hub's
 * port (or one of HUB_ALLOWED_HOSTS); in both modes an Origin, when present, must be one of the hub's
 * own (a page the hub served under an allowed Host) or one of HUB_ALLOWED_ORIGINS.
 * Pure (a configuration is not changed once loaded): the middleware in app.ts and the MCP transport's
 * options (mcp.controller.ts) both read it.
 */
import { normalHost, normalOrigin, type HubConfig } from './config.js';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARDS = ['0.0.0.0', '::'];

/**
 * The Host values served on `port` (normalized as normalHost does); undefined: any Host (with
 * tokens and no HUB_ALLOWED_HOSTS — the token, which no foreign page has, guards the hub then).
 */
export function servedHosts(config: HubConfig, port: number): string[] | undefined {
  // Every request asks (app.ts's ownPagesOnly): worked out once per configuration and port.
  let byPort = served.get(config);
  if (!byPort) served.set(config, (byPort = new Map()));
  if (!byPort.has(port)) byPort.set(port, hostsOf(config, port));
  return byPort.get(port);
}

const served = new WeakMap<HubConfig, Map<number, string[] | undefined>>();

function hostsOf(config: HubConfig, port: number): string[] | undefined {
  if (config.clientToken && config.allowedHosts.length === 0) return undefined;
  const own = WILDCARDS.includes(config.host) ? [] : [config.host.includes(':') ? `[${config.host}]` : config.host];
  const names = [...new Set([...LOOPBACK_NAMES, ...own])].map((name) => normalHost(`${name}:${port}`)!);
  return [...new Set([...names, ...config.allowedHosts])];
}

/**
 * The origins whose pages may call: the hub's own (each served Host, over http or https behind a
 * proxy; with any Host served, the request's own Host) and HUB_ALLOWED_ORIGINS.
 */
export function servedOrigins(config: HubConfig, hosts: string[] | undefined, hostHeader: string | undefined): string[] {
  const own = hosts ?? [normalHost(hostHeader ?? '')].filter((h): h is string => h !== undefined);
  const origins = own.flatMap((host) => [`http://${host}`, `https://${host}`].map((o) => normalOrigin(o)!));
  return [...new Set([...origins, ...config.allowedOrigins])];
}

/** Why a request with these headers is refused (a Russian detail for the 403), or undefined when it is served. */
export function foreignRequest(config: HubConfig, port: number, host: string | undefined, origin: string | undefined): string | undefined {
  const hosts = servedHosts(config, port);
  const name = normalHost(host ?? '');
  if (hosts && (!name || !hosts.includes(name))) {
    return (
      `хаб не отвечает на имя «${host ?? ''}»: он обслуживает только ${hosts.join(', ')}. ` +
      'Так выглядит атака DNS rebinding со страницы в браузере; если хаб стоит за обратным прокси, добавьте имя, под которым его открывают, в HUB_ALLOWED_HOSTS'
    );
  }
  if (origin === undefined) return undefined;
  const origins = servedOrigins(config, hosts, host);
  if (origins.includes(normalOrigin(origin) ?? '')) return undefined;
  return (
    `запрос со страницы ${origin} отклонён: хаб принимает запросы из браузера только со своих страниц. ` +
    'Чтобы разрешить другой сайт, добавьте его origin в HUB_ALLOWED_ORIGINS'
  );
}
