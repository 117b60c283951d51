/**
 * Rule: the network tools never reach Toolgate itself (its port on any address of this machine, in
 * any spelling, under any name that resolves there), whatever the public-web-only setting says,
 * while other loopback ports stay governed by that setting. They never reach link-local addresses (cloud metadata
 * services), not even through a redirect or a name that changes its answer between the check and the connection (DNS
 * rebinding), and with the public-web-only policy they refuse loopback and private networks too;
 * the refusal is PERMISSION_DENIED and nothing is sent to the refused address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LookupFunction, assertAllowedDestination, destinationPolicy } from '../../tools/network/address-guard';
import { SelfGuard } from '../../tools/common/self-guard';
import { connectGuardedFetch } from '../../tools/network/guarded-connect';
import { errorOf, networkHarness, textOf } from './harness';
import { type LocalServer, startServer } from './local-http';

let server: LocalServer;
let pageHits = 0;
beforeAll(async () => {
  server = await startServer({
    '/page': (_req, res) => {
      pageHits++;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('local page');
    },
    '/to-metadata': (_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
  });
});
afterAll(async () => server?.close());

describe('link-local addresses', () => {
  it('are refused for every tool, whatever the policy', async () => {
    const h = networkHarness();
    for (const [tool, args] of [
      ['web_fetch', { url: 'http://169.254.169.254/latest/meta-data/' }],
      ['http_request', { url: 'http://169.254.169.254/latest/api/token', method: 'PUT' }],
      ['download_file', { url: 'http://[fe80::1]/x', path: 'x.bin' }],
    ] as const) {
      const e = errorOf(await h.call(tool, args));
      expect([tool, e.code]).toEqual([tool, 'PERMISSION_DENIED']);
      expect(e.message).toContain('link-local');
    }
    h.dispose();
  });

  it('are refused at a redirect hop too', async () => {
    const h = networkHarness();
    const e = errorOf(await h.call('web_fetch', { url: `${server.url}/to-metadata` }));
    expect(e.code).toBe('PERMISSION_DENIED');
    h.dispose();
  });

  it('are recognised inside IPv4-mapped IPv6 addresses', async () => {
    await expect(
      assertAllowedDestination(new URL('http://[::ffff:169.254.169.254]/'), destinationPolicy()),
    ).rejects.toThrow(/link-local/);
  });
});

describe('the public-web-only policy', () => {
  it('refuses loopback and private networks when on', async () => {
    const h = networkHarness({ blockPrivateAddresses: true });
    const e = errorOf(await h.call('web_fetch', { url: `${server.url}/page` }));
    expect(e).toMatchObject({ code: 'PERMISSION_DENIED', message: expect.stringContaining('private-network') });
    for (const host of ['10.1.2.3', '192.168.0.10', '172.20.0.1', '[::1]', 'localhost']) {
      await expect(
        assertAllowedDestination(
          new URL(`http://${host}/`),
          destinationPolicy(() => true),
        ),
      ).rejects.toThrow(/Refused/);
    }
    h.dispose();
  });

  it('lets loopback through when off (the default), for local web apps under test', async () => {
    const h = networkHarness();
    expect(textOf(await h.call('web_fetch', { url: `${server.url}/page` }))).toContain('local page');
    await expect(
      assertAllowedDestination(
        new URL('http://8.8.8.8/'),
        destinationPolicy(() => true),
      ),
    ).resolves.toBeUndefined();
    h.dispose();
  });

  it('follows a setting change at once when given as a getter', async () => {
    let on = false;
    const h = networkHarness({ blockPrivateAddresses: () => on });
    expect((await h.call('web_fetch', { url: `${server.url}/page` })).ok).toBe(true);
    on = true;
    expect(errorOf(await h.call('web_fetch', { url: `${server.url}/page` })).code).toBe('PERMISSION_DENIED');
    h.dispose();
  });
});

/** A resolver whose answers for a name change from one lookup to the next (the last one repeats). */
function scriptedDns(answers: Record<string, string[]>): LookupFunction & { asked: string[] } {
  const asked: string[] = [];
  const lookup: LookupFunction = (hostname, options, callback) => {
    asked.push(hostname);
    const script = answers[hostname];
    if (!script) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    const address = script[Math.min(asked.filter((h) => h === hostname).length - 1, script.length - 1)] as string;
    const family = address.includes(':') ? 6 : 4;
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return Object.assign(lookup, { asked });
}

describe('a name that changes its answer after the check (DNS rebinding)', () => {
  const port = () => new URL(server.url).port;

  it('connects to the address the name resolves to when the socket opens, checked again there', async () => {
    const dns = scriptedDns({ 'app.test': ['127.0.0.1'] });
    const h = networkHarness({ lookup: dns });
    const before = pageHits;
    expect(textOf(await h.call('web_fetch', { url: `http://app.test:${port()}/page` }))).toContain('local page');
    expect(pageHits).toBe(before + 1);
    expect(dns.asked.filter((n) => n === 'app.test').length).toBeGreaterThanOrEqual(2);
    h.dispose();
  });

  it('is refused at connect time when the second answer is private, and the server never hears of it', async () => {
    const dns = scriptedDns({ 'rebind.test': ['93.184.216.34', '127.0.0.1'] });
    const h = networkHarness({ lookup: dns, blockPrivateAddresses: true });
    const before = pageHits;
    const e = errorOf(await h.call('web_fetch', { url: `http://rebind.test:${port()}/page` }));
    expect(e).toMatchObject({ code: 'PERMISSION_DENIED', message: expect.stringContaining('127.0.0.1') });
    expect(pageHits).toBe(before);
    h.dispose();
  });

  it('is refused at connect time when the second answer is link-local, for every tool', async () => {
    for (const [tool, args] of [
      ['web_fetch', { url: 'http://metadata.test/latest/meta-data/' }],
      ['http_request', { url: 'http://metadata.test/latest/api/token', method: 'PUT' }],
      ['download_file', { url: 'http://metadata.test/x', path: 'x.bin' }],
    ] as const) {
      const h = networkHarness({ lookup: scriptedDns({ 'metadata.test': ['93.184.216.34', '169.254.169.254'] }) });
      const e = errorOf(await h.call(tool, args));
      expect([tool, e.code, e.message]).toEqual([tool, 'PERMISSION_DENIED', expect.stringContaining('link-local')]);
      h.dispose();
    }
  });
});

describe('the connection itself', () => {
  it('refuses a link-local literal that a redirect followed inside fetch leads to', async () => {
    const guarded = connectGuardedFetch(destinationPolicy());
    const failure = await guarded(`${server.url}/to-metadata`, { redirect: 'follow' }).then(
      () => undefined,
      (e: unknown) => e as { cause?: { toolErrorCode?: string; message?: string } },
    );
    expect(failure?.cause).toMatchObject({
      toolErrorCode: 'PERMISSION_DENIED',
      message: expect.stringContaining('link-local'),
    });
  });
});

describe("Toolgate's own port", () => {
  let toolgate: LocalServer;
  let toolgateHits = 0;
  let self: SelfGuard;
  beforeAll(async () => {
    toolgate = await startServer({
      '/': (_req, res) => {
        toolgateHits++;
        res.writeHead(200, { 'content-type': 'text/html' }).end('<button>Approve once</button>');
      },
    });
    self = new SelfGuard({ ports: [Number(new URL(toolgate.url).port)] });
  });
  afterAll(async () => toolgate?.close());
  const port = () => new URL(toolgate.url).port;

  it('is refused on every spelling of this machine, for every tool, with the public-web-only setting off', async () => {
    const h = networkHarness({ self });
    const before = toolgateHits;
    for (const host of [
      '127.0.0.1',
      '127.1',
      '0x7f.1',
      '2130706433',
      '127.9.9.9',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      'localhost',
      'localhost.',
      'app.localhost',
      '0.0.0.0',
      '[::]',
    ]) {
      for (const [tool, args] of [
        ['web_fetch', { url: `http://${host}:${port()}/` }],
        ['http_request', { url: `http://${host}:${port()}/api/rpc/decideApproval`, method: 'POST', body: '{}' }],
        ['download_file', { url: `http://${host}:${port()}/`, path: 'ui.html' }],
      ] as const) {
        const e = errorOf(await h.call(tool, args));
        expect([host, tool, e.code, e.message]).toEqual([
          host,
          tool,
          'PERMISSION_DENIED',
          expect.stringMatching(/is Toolgate itself; tools may not reach it/),
        ]);
      }
    }
    expect(toolgateHits).toBe(before);
    h.dispose();
  });

  it('is refused under a name that resolves to loopback, and when a name rebinds there at connect time', async () => {
    const before = toolgateHits;
    const named = networkHarness({ self, lookup: scriptedDns({ 'ui.test': ['127.0.0.1'] }) });
    expect(errorOf(await named.call('web_fetch', { url: `http://ui.test:${port()}/` })).message).toContain(
      'is Toolgate itself',
    );
    named.dispose();
    const rebinding = networkHarness({ self, lookup: scriptedDns({ 'rebind.test': ['93.184.216.34', '127.0.0.1'] }) });
    expect(errorOf(await rebinding.call('web_fetch', { url: `http://rebind.test:${port()}/` })).message).toContain(
      'is Toolgate itself',
    );
    rebinding.dispose();
    expect(toolgateHits).toBe(before);
  });

  it('is refused at a redirect hop that leads there', async () => {
    const h = networkHarness({ self });
    const bounce = await startServer({
      '/bounce': (_req, res) => res.writeHead(302, { location: `http://localhost:${port()}/` }).end(),
    });
    const before = toolgateHits;
    expect(errorOf(await h.call('web_fetch', { url: `${bounce.url}/bounce` })).message).toContain('is Toolgate itself');
    expect(toolgateHits).toBe(before);
    await bounce.close();
    h.dispose();
  });

  it('is refused by the connection itself, whatever fetch does around it', async () => {
    const guarded = connectGuardedFetch(destinationPolicy(() => false, self));
    const failure = await guarded(`http://127.1:${port()}/`).then(
      () => undefined,
      (e: unknown) => e as { cause?: { toolErrorCode?: string; message?: string } },
    );
    expect(failure?.cause).toMatchObject({
      toolErrorCode: 'PERMISSION_DENIED',
      message: expect.stringContaining('is Toolgate itself'),
    });
  });

  it('leaves the other loopback ports to the setting', async () => {
    const h = networkHarness({ self });
    expect(textOf(await h.call('web_fetch', { url: `${server.url}/page` }))).toContain('local page');
    h.dispose();
  });
});
