/**
 * A web site on an allowed loopback port whose pages try every way a page has to reach the
 * Toolgate host (frames, images, fetches, WebSockets, a worker, a service worker, redirects) and write down what they
 * got, so a snapshot tells the test. It also records the Cookie header each visit brings.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * `/embeds`: the page. With `?all=false` it leaves out what no route sees (a redirect hop, a
 * worker's WebSocket), which only a browser Toolgate launched itself can stop at its resolver.
 */
function embeddingPage(port: number, all: boolean): string {
  const target = `127.0.0.1:${port}`;
  const redirectedFetch =
    "fetch('/to-host').then((r) => note('redirected fetch: HTTP ' + r.status), " +
    "() => note('redirected fetch: failed'));";
  return `<!doctype html><title>Embeds</title>
<ul id="log"></ul>
<img src="http://${target}/img.png" onerror="note('img: error')" onload="note('img: loaded')">
<iframe src="http://${target}/#/approvals" title="ui frame"></iframe>
${all ? '<iframe src="/to-host" title="redirected frame"></iframe>' : ''}
<script>
  function note(text) {
    const li = document.createElement('li');
    li.textContent = text;
    document.getElementById('log').append(li);
  }
  fetch('http://${target}/api/rpc/pendingApprovals', { method: 'POST', body: '{}' })
    .then((r) => note('fetch: HTTP ' + r.status), () => note('fetch: failed'));
  ${all ? redirectedFetch : ''}
  const ws = new WebSocket('ws://${target}/events');
  ws.onopen = () => note('websocket: open');
  ws.onclose = () => note('websocket: closed');
  const worker = new Worker('/worker.js?all=${all}');
  worker.onmessage = (e) => note('worker ' + e.data);
  // A service worker's own requests are seen by no route: it must not exist at all.
  navigator.serviceWorker.register('/sw.js').then(
    (registration) => note(registration ? 'service worker: registered' : 'service worker: refused'),
    () => note('service worker: refused'),
  );
</script>`;
}

function workerScript(port: number, all: boolean): string {
  const socket = `
const ws = new WebSocket('ws://127.0.0.1:${port}/events');
ws.onopen = () => postMessage('websocket: open');
ws.onclose = () => postMessage('websocket: closed');`;
  return `
fetch('http://localhost:${port}/').then(
  (r) => postMessage('fetch: HTTP ' + r.status),
  () => postMessage('fetch: failed'),
);
${all ? socket : ''}`;
}

/** What `/embeds` writes when nothing reached the host. */
export const ALL_OUTCOMES = [
  'img: error',
  'fetch: failed',
  'redirected fetch: failed',
  'websocket: closed',
  'worker fetch: failed',
  'worker websocket: closed',
  'service worker: refused',
];
/** The same for `/embeds?all=false`. */
export const ROUTED_OUTCOMES = [
  'img: error',
  'fetch: failed',
  'websocket: closed',
  'worker fetch: failed',
  'service worker: refused',
];
/** What any of them writes when something did. */
export const REACHED = /HTTP \d|loaded|: open|registered|Approve once/;

export interface HostileSite {
  url: string;
  /** The Cookie header of each visit to `/echo-cookie`, in order. */
  cookiesSeen: Array<string | undefined>;
  /** Every path the site was asked for (a service worker's script among them, were one allowed). */
  requested: string[];
  close(): Promise<void>;
}

export async function startHostileSite(hostPort: () => number): Promise<HostileSite> {
  const cookiesSeen: Array<string | undefined> = [];
  const requested: string[] = [];
  const route = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://x');
    requested.push(url.pathname);
    const all = url.searchParams.get('all') !== 'false';
    const html = (body: string): void => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (url.pathname === '/embeds') return html(embeddingPage(hostPort(), all));
    if (url.pathname === '/worker.js')
      return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(workerScript(hostPort(), all));
    if (url.pathname === '/sw.js')
      return void res
        .writeHead(200, { 'content-type': 'text/javascript' })
        .end(`self.addEventListener('fetch', () => {}); fetch('http://127.0.0.1:${hostPort()}/from-service-worker');`);
    if (url.pathname === '/to-host')
      return void res.writeHead(302, { location: `http://127.0.0.1:${hostPort()}/` }).end();
    if (url.pathname === '/echo-cookie') {
      cookiesSeen.push(req.headers.cookie);
      return html(`<title>Cookies</title><p>cookie header: ${req.headers.cookie ?? '(none)'}</p>`);
    }
    res.writeHead(404).end();
  };
  const server: Server = createServer(route);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cookiesSeen,
    requested,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Takes snapshots (a bounded number) until the page has written every expected outcome; returns the last. */
export async function outcomes(snapshot: () => Promise<string>, expected: readonly string[]): Promise<string> {
  let text = '';
  for (let i = 0; i < 50; i++) {
    text = await snapshot();
    if (expected.every((line) => text.includes(line))) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return text;
}
