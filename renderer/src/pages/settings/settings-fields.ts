/**
 * The settings form's fields, read from the contract's `Settings` schema so the form cannot drift
 * from what the host accepts: the input kind, numeric bounds and help text come from the schema;
 * only the grouping and the human labels are written here. A setting added to the contract and not
 * yet placed in a group still shows, under "Other", rather than silently missing from the page.
 */
import { Settings } from '../../../../shared/contract';

export type SettingKey = keyof Settings;
export type SettingKind = 'text' | 'url' | 'number' | 'boolean';

export interface SettingField {
  key: SettingKey;
  label: string;
  kind: SettingKind;
  /** The contract's `.describe()` text: what the setting does and its default. */
  help: string;
  min?: number;
  max?: number;
  integer?: boolean;
}

export interface SettingGroup {
  id: string;
  title: string;
  fields: SettingField[];
}

const LAYOUT: ReadonlyArray<{ id: string; title: string; fields: ReadonlyArray<readonly [SettingKey, string]> }> = [
  { id: 'workspace', title: 'Workspace', fields: [['workspaceRoot', 'Workspace folder']] },
  {
    id: 'devices',
    title: 'Devices',
    fields: [
      ['adbHost', 'adb server host'],
      ['adbPort', 'adb server port'],
    ],
  },
  {
    id: 'browser',
    title: 'Browser',
    fields: [
      ['browserExecutablePath', 'Browser executable'],
      ['browserCdpEndpoint', 'Remote browser (CDP endpoint)'],
      ['browserPlaywrightServer', 'Remote browser (Playwright server)'],
      ['browserHeadless', 'Headless browser'],
      ['browserPersistentProfile', 'Persistent browser profile'],
    ],
  },
  {
    id: 'network',
    title: 'Network',
    fields: [
      ['webSearchEndpoint', 'Web search endpoint'],
      ['networkBlockPrivateAddresses', 'Public web only'],
    ],
  },
  {
    id: 'skills',
    title: 'Skill sources',
    fields: [
      ['skillSourceFolder', 'Skills folder (workspace)'],
      ['skillIndexUrl', 'Skill index (https)'],
    ],
  },
  { id: 'github', title: 'GitHub', fields: [['githubApiUrl', 'GitHub API URL']] },
  { id: 'approvals', title: 'Approvals', fields: [['approvalTimeoutSeconds', 'Approval timeout (seconds)']] },
  {
    id: 'terminals',
    title: 'Terminals',
    fields: [
      ['terminalHostEnabled', 'Terminals on this machine'],
      ['terminalWorkspaces', 'More terminal folders'],
      ['terminalUbuntuSource', 'Ubuntu source for the sandbox'],
    ],
  },
  { id: 'telemetry', title: 'Telemetry export', fields: [['otlpEndpoint', 'OTLP collector endpoint']] },
];

export const SETTING_KEYS = Object.keys(Settings.shape) as SettingKey[];

function fieldFor(key: SettingKey, label: string): SettingField {
  const schema = Settings.shape[key];
  const inner = schema.unwrap();
  const help = schema.description ?? '';
  if (inner.def.type === 'boolean') return { key, label, kind: 'boolean', help };
  if (inner.def.type === 'number' && 'minValue' in inner) {
    return {
      key,
      label,
      kind: 'number',
      help,
      integer: inner.isInt === true,
      ...(inner.minValue !== null ? { min: inner.minValue } : {}),
      ...(inner.maxValue !== null ? { max: inner.maxValue } : {}),
    };
  }
  const isUrl = 'format' in inner && inner.format === 'url';
  return { key, label, kind: isUrl ? 'url' : 'text', help };
}

/** The page's sections in order, every contract setting in exactly one of them. */
export function settingGroups(): SettingGroup[] {
  const placed = new Set<SettingKey>();
  const groups = LAYOUT.map((g) => ({
    id: g.id,
    title: g.title,
    fields: g.fields.map(([key, label]) => {
      placed.add(key);
      return fieldFor(key, label);
    }),
  }));
  const rest = SETTING_KEYS.filter((k) => !placed.has(k));
  if (rest.length) groups.push({ id: 'other', title: 'Other', fields: rest.map((k) => fieldFor(k, k)) });
  return groups;
}
