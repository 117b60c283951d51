/**
 * The person-editable settings and which of them apply only after a restart. Part of the contract
 * (shared/contract.ts).
 */
import { z } from 'zod';

/** The person-editable settings. Unset keys use the defaults; `restartRequired` ones apply at the next start. */
export const Settings = z.object({
  workspaceRoot: z
    .string()
    .min(1)
    .optional()
    .describe('Folder the file tools may read and write (default DATA_DIR/workspace). Restart required.'),
  adbHost: z
    .string()
    .min(1)
    .optional()
    .describe('Host of the adb server (default 127.0.0.1; set for a remote adb server). Restart required.'),
  adbPort: z
    .number()
    .int()
    .min(1)
    .max(65535)
    .optional()
    .describe('Port of the adb server (default 5037). Restart required.'),
  browserExecutablePath: z
    .string()
    .min(1)
    .optional()
    .describe('Chrome/Chromium/Edge to launch (default: auto-detected). Restart required.'),
  browserCdpEndpoint: z
    .string()
    .url()
    .optional()
    .describe('Connect to a running browser over CDP instead of launching one. Restart required.'),
  browserPlaywrightServer: z
    .string()
    .regex(/^wss?:\/\/\S+$/, 'must be a ws:// or wss:// address')
    .url()
    .optional()
    .describe(
      'Connect to a Playwright browser server (the ws:// address `launchServer` or `playwright run-server` prints) ' +
        'instead of launching one; it must run the same Playwright version as Toolgate (playwright-core 1.65). A CDP ' +
        'endpoint, when also set, wins. Restart required.',
    ),
  browserHeadless: z
    .boolean()
    .optional()
    .describe('Launch the browser without a window (default true). Restart required.'),
  browserPersistentProfile: z
    .boolean()
    .optional()
    .describe('Keep cookies and storage in a profile in the data dir (default false). Restart required.'),
  webSearchEndpoint: z
    .string()
    .url()
    .optional()
    .describe('Search provider for web_search: GET {endpoint}?q=…&n=… → {results:[{title,url,snippet}]}.'),
  networkBlockPrivateAddresses: z
    .boolean()
    .optional()
    .describe(
      'Keep the network tools on the public web: refuse loopback and private-network addresses (default off; ' +
        'link-local addresses are always refused).',
    ),
  approvalTimeoutSeconds: z
    .number()
    .int()
    .min(5)
    .max(3600)
    .optional()
    .describe('How long a destructive call waits for a decision (default 120). Restart required.'),
  otlpEndpoint: z
    .string()
    .url()
    .optional()
    .describe('OpenTelemetry collector (OTLP/HTTP) to export spans to, e.g. http://127.0.0.1:4318.'),
  skillSourceFolder: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe('A workspace folder of skill folders and archives that skill_search also searches (e.g. "skills").'),
  skillIndexUrl: z
    .string()
    .regex(/^https:\/\//, 'must be an https:// address')
    .url()
    .optional()
    .describe('An https index of skills skill_search also searches: {"skills":[{"name","description","url"}]}.'),
  githubApiUrl: z
    .string()
    .regex(/^https?:\/\//, 'must be an http:// or https:// address')
    .url()
    .optional()
    .describe(
      'The GitHub API the GitHub tools call (default https://api.github.com; GitHub Enterprise: https://HOST/api/v3).',
    ),
  terminalHostEnabled: z
    .boolean()
    .optional()
    .describe(
      'Let agents open terminals on this machine (terminal.create backend "host"): a shell as your user, where ' +
        'every key that could start a command and every command that changes or reads files still asks you first. ' +
        'Default off; turning it off closes the open ones.',
    ),
  terminalWorkspaces: z
    .string()
    .min(1)
    .optional()
    .describe(
      'More folders a terminal may start in, besides the workspace (absolute paths separated by ":"). A sandbox ' +
        'terminal sees only its folder, at /workspace. A folder holding the data dir is never used.',
    ),
  terminalUbuntuSource: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Where terminal.ubuntu_install gets Ubuntu for the sandbox: an Ubuntu mirror (e.g. ' +
        'http://archive.ubuntu.com/ubuntu; needs the ubuntu-keyring ' +
        'package) or the absolute path of a rootfs tarball.',
    ),
});
export type Settings = z.infer<typeof Settings>;
export const RESTART_REQUIRED_SETTINGS = [
  'workspaceRoot',
  'adbHost',
  'adbPort',
  'approvalTimeoutSeconds',
  'browserExecutablePath',
  'browserCdpEndpoint',
  'browserPlaywrightServer',
  'browserHeadless',
  'browserPersistentProfile',
] as const;
