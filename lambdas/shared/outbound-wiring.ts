import { GuardedHttp } from '../adapters/guarded-http';
import type { Config } from './config';

/**
 * The guarded outbound client of SPEC 8 for `config`: loopback allowed only where the runtime allows it,
 * and never the ports of the local runtime's own emulators (`config.endpoints`, unset in AWS).
 */
export const guardedHttp = (config: Pick<Config, 'allowLoopbackUrls' | 'endpoints'>): GuardedHttp =>
  new GuardedHttp({
    allowLoopback: config.allowLoopbackUrls,
    refusedLoopbackPorts: Object.values(config.endpoints)
      .flatMap((endpoint) => {
        try {
          return endpoint ? [new URL(endpoint)] : [];
        } catch {
          return [];
        }
      })
      .map((url) => Number(url.port || (url.protocol === 'https:' ? 443 : 80))),
  });
