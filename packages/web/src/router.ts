import { useEffect, useState } from 'react';

/** Pages are addressed by the hash (#/batch/12): the hub serves one index.html at /. */
export interface Route {
  page: string;
  id?: string;
  params: URLSearchParams;
}

export function parseHash(hash: string): Route {
  const [path, q = ''] = hash.replace(/^#\/?/, '').split('?');
  const [page = '', id] = path.split('/').filter(Boolean).map(decodeURIComponent);
  return { page: page || 'queue', id, params: new URLSearchParams(q) };
}

export function useRoute(): Route {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const on = () => setHash(window.location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return parseHash(hash);
}

export function go(hash: string): void {
  window.location.hash = hash;
}

/** The address of a batch's page: the one place that spells it. */
export const batchHref = (id: number | string): string => `#/batch/${id}`;
