/**
 * A real HTTPS server on 127.0.0.1 with a certificate made for the test (openssl), and a fetch
 * that trusts only that certificate: the skills family's downloads are https-only, so their tests
 * need TLS for real.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import type { FetchLike } from '../../../tools/network/http-fetch';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface LocalHttps {
  url: string;
  /** Requests received, by path. */
  hits: string[];
  fetch: FetchLike;
  close(): Promise<void>;
}

function certificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startHttps(routes: Record<string, Route>): Promise<LocalHttps> {
  const { key, cert } = certificate();
  const hits: string[] = [];
  const server = createServer({ key, cert }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    hits.push(path);
    const route = routes[path];
    if (route) route(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('no such route');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const dispatcher = new Agent({ connect: { ca: cert } });
  return {
    url: `https://127.0.0.1:${port}`,
    hits,
    fetch: (input, init) =>
      undiciFetch(input, {
        ...(init as Parameters<typeof undiciFetch>[1]),
        dispatcher,
      }) as unknown as Promise<Response>,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        void dispatcher.close();
      }),
  };
}
