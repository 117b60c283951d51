/**
 * A local HTTP server that answers as api.github.com did when @octokit/fixtures recorded it: the
 * recorded bodies and headers (ids, rate-limit and pagination headers, with api.github.com links
 * pointed at this server), and GitHub's documented error bodies and headers for the failures.
 * Where no scenario recorded an endpoint (GET /user, the repository lists, a file's JSON content,
 * code search), the answer is built from recorded objects (the user, repository and content entry
 * GitHub returned) in the shape GitHub's REST reference documents. It checks the token on every
 * request, as GitHub does.
 */
import { readFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const SCENARIOS = join(__dirname, '../../../node_modules/@octokit/fixtures/scenarios/api.github.com');

interface Recorded {
  method: string;
  path: string;
  status: number;
  response: unknown;
  headers: Record<string, string | number>;
}

export function recorded(scenario: string): Recorded[] {
  return JSON.parse(readFileSync(join(SCENARIOS, scenario, 'normalized-fixture.json'), 'utf8')) as Recorded[];
}

export interface Received {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
  body: unknown;
}

export type ErrorKind =
  | 'unauthorized'
  | 'rate-limited'
  | 'secondary-rate-limit'
  | 'too-many-requests'
  | 'missing-scope'
  | 'not-found'
  | 'conflict'
  | 'validation'
  | 'server-error';

const DOCS = 'https://docs.github.com/rest';
export const RATE_RESET = Math.floor(Date.UTC(2030, 0, 1, 12, 0, 0) / 1000);

/** GitHub's documented error answers (REST reference: "Rate limits for the REST API", "Troubleshooting"). */
function errorAnswer(
  kind: ErrorKind,
  route: string,
): { status: number; headers: Record<string, string>; body: unknown } {
  const rate = { 'x-ratelimit-limit': '5000', 'x-ratelimit-used': '5000', 'x-ratelimit-resource': 'core' };
  switch (kind) {
    case 'unauthorized':
      return { status: 401, headers: {}, body: { message: 'Bad credentials', documentation_url: DOCS, status: '401' } };
    case 'rate-limited':
      return {
        status: 403,
        headers: { ...rate, 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(RATE_RESET) },
        body: {
          message:
            'API rate limit exceeded for user ID 31898046. If you reach out to GitHub Support for help, please ' +
            'include the request ID 0000:00000:0000000:0000000:00000000.',
          documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
          status: '403',
        },
      };
    case 'secondary-rate-limit':
    case 'too-many-requests':
      return {
        status: kind === 'too-many-requests' ? 429 : 403,
        headers: { 'retry-after': '60', 'x-ratelimit-remaining': '4000', 'x-ratelimit-reset': String(RATE_RESET) },
        body: {
          message:
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you ' +
            'reach out to GitHub Support for help, please include the request ID ' +
            '0000:00000:0000000:0000000:00000000.',
          documentation_url:
            'https://docs.github.com/free-pro-team@latest/rest/overview/' +
            'rate-limits-for-the-rest-api#about-secondary-rate-limits',
          status: String(kind === 'too-many-requests' ? 429 : 403),
        },
      };
    case 'missing-scope':
      return {
        status: 403,
        headers: { 'x-accepted-oauth-scopes': 'repo', 'x-oauth-scopes': 'read:user', 'x-ratelimit-remaining': '4999' },
        body: { message: 'Resource not accessible by personal access token', documentation_url: DOCS, status: '403' },
      };
    case 'not-found':
      return { status: 404, headers: {}, body: { message: 'Not Found', documentation_url: DOCS, status: '404' } };
    case 'conflict':
      return {
        status: 409,
        headers: {},
        body: {
          message:
            'is at 3f3f005b29247e51a4f4d6b8ce07b67646cd6074 but expected 93a078d1c3f76aa1ca11def8f882a06df1d4a01b',
          documentation_url: 'https://docs.github.com/rest/repos/contents#create-or-update-file-contents',
          status: '409',
        },
      };
    case 'validation':
      if (route.startsWith('PUT /repos/'))
        return {
          status: 422,
          headers: {},
          body: {
            message: 'Invalid request.\n\n"sha" wasn\'t supplied.',
            documentation_url: 'https://docs.github.com/rest/repos/contents#create-or-update-file-contents',
            status: '422',
          },
        };
      if (route.startsWith('POST /repos/'))
        return {
          status: 422,
          headers: {},
          body: {
            message: 'Validation Failed',
            errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }],
            documentation_url: 'https://docs.github.com/rest/issues/issues#create-an-issue',
            status: '422',
          },
        };
      // The recorded 422 of the "errors" scenario.
      return { status: 422, headers: {}, body: recorded('errors')[0]?.response };
    case 'server-error':
      return { status: 502, headers: {}, body: { message: 'Server Error' } };
  }
}

export interface GithubServer {
  url: string;
  token: string;
  received: Received[];
  /** Every request answers this error until cleared. */
  failWith(kind: ErrorKind | undefined): void;
  close(): Promise<void>;
}

export async function startGithubServer(token: string): Promise<GithubServer> {
  let failing: ErrorKind | undefined;
  const received: Received[] = [];
  let base = '';
  const rewrite = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value).replaceAll('https://api.github.com', base));

  const user = recorded('add-and-remove-repository-collaborator')[3]?.response as Array<Record<string, unknown>>;
  const repository = recorded('get-repository')[0]?.response as Record<string, unknown>;
  const listing = recorded('get-content')[0]?.response as Array<Record<string, unknown>>;
  const rawReadme = String(recorded('get-content')[1]?.response);
  const created = recorded('create-file')[0];
  const issue = recorded('add-labels-to-issue')[0];
  const issuePages = recorded('paginate-issues');

  const routes: Array<
    [
      RegExp,
      string,
      (
        m: RegExpMatchArray,
        q: Record<string, string>,
      ) => { status: number; body: unknown; headers?: Record<string, string | number> },
    ]
  > = [
    [
      /^\/user$/,
      'GET',
      () => ({
        status: 200,
        body: { ...user[0], name: 'Fixture User A', public_repos: 1, followers: 0, following: 0 },
      }),
    ],
    [/^\/users\/([^/]+)$/, 'GET', (m) => ({ status: 200, body: { ...user[0], login: m[1] } })],
    [/^\/(user|users\/[^/]+|orgs\/[^/]+)\/repos$/, 'GET', () => ({ status: 200, body: [repository] })],
    [
      /^\/repos\/([^/]+)\/([^/]+)\/contents\/?(.*)$/,
      'GET',
      (m) => {
        const path = decodeURIComponent(m[3] ?? '');
        if (path === '' || path === 'src') return { status: 200, body: listing };
        if (path === 'README.md')
          return {
            status: 200,
            body: { ...listing[0], encoding: 'base64', content: `${Buffer.from(rawReadme).toString('base64')}\n` },
          };
        if (path === 'logo.png')
          return {
            status: 200,
            body: {
              ...listing[0],
              name: 'logo.png',
              path: 'logo.png',
              size: 8,
              encoding: 'base64',
              content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]).toString('base64'),
            },
          };
        if (path === 'big.bin')
          return {
            status: 200,
            body: { ...listing[0], name: 'big.bin', path: 'big.bin', size: 5_000_000, encoding: 'none', content: '' },
          };
        return { status: 404, body: { message: 'Not Found', documentation_url: DOCS } };
      },
    ],
    [
      /^\/repos\/([^/]+)\/([^/]+)\/contents\/(.+)$/,
      'PUT',
      () => ({ status: created?.status ?? 201, body: created?.response, headers: created?.headers }),
    ],
    [/^\/repos\/([^/]+)\/([^/]+)\/issues$/, 'POST', () => ({ status: issue?.status ?? 201, body: issue?.response })],
    [
      /^\/repos\/([^/]+)\/([^/]+)\/issues$/,
      'GET',
      () => ({ status: 200, body: issuePages[0]?.response, headers: issuePages[0]?.headers }),
    ],
    [
      /^\/repositories\/(\d+)\/issues$/,
      'GET',
      (_m, q) => {
        const page = issuePages[Number(q.page ?? '1') - 1];
        return page ? { status: 200, body: page.response, headers: page.headers } : { status: 200, body: [] };
      },
    ],
    [
      /^\/search\/code$/,
      'GET',
      () => ({
        status: 200,
        body: {
          total_count: 1,
          incomplete_results: false,
          items: [
            {
              name: 'README.md',
              path: 'README.md',
              sha: listing[0]?.sha,
              url: listing[0]?.url,
              git_url: listing[0]?.git_url,
              html_url: listing[0]?.html_url,
              repository,
              score: 1,
              text_matches: [
                {
                  object_type: 'FileContent',
                  property: 'content',
                  fragment: rawReadme,
                  matches: [{ text: 'hello', indices: [2, 7] }],
                },
              ],
            },
          ],
        },
      }),
    ],
  ];

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const query = Object.fromEntries(url.searchParams);
      const text = Buffer.concat(chunks).toString('utf8');
      const method = req.method ?? 'GET';
      received.push({
        method,
        path: url.pathname,
        query,
        authorization: req.headers.authorization,
        body: text ? JSON.parse(text) : undefined,
      });
      const send = (status: number, body: unknown, headers: Record<string, string | number> = {}) => {
        const out: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
        for (const [k, v] of Object.entries(headers))
          if (!['content-length', 'connection', 'content-type'].includes(k))
            out[k] = String(v).replaceAll('https://api.github.com', base);
        res.writeHead(status, out).end(body === undefined ? '' : JSON.stringify(rewrite(body)));
      };
      if (req.headers.authorization !== `token ${token}`)
        return send(401, { message: 'Bad credentials', documentation_url: DOCS, status: '401' });
      const route = `${method} ${url.pathname}`;
      if (failing) {
        const e = errorAnswer(failing, route);
        return send(e.status, e.body, e.headers);
      }
      for (const [pattern, verb, answer] of routes) {
        const m = url.pathname.match(pattern);
        if (m && verb === method) {
          const a = answer(m, query);
          return send(a.status, a.body, a.headers);
        }
      }
      send(404, { message: 'Not Found', documentation_url: DOCS, status: '404' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    token,
    received,
    failWith: (kind) => {
      failing = kind;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
