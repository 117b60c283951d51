/**
 * The names of the contract's methods, free of any dependency, so the sandboxed preload can build
 * its named API without bundling zod. `contract.ts` checks at compile time that both agree.
 */
export const METHOD_NAME_LIST = [
  'info',
  'listTools',
  'callTool',
  'listSpans',
  'exportSpans',
  'callDetail',
  'replayCall',
  'callReport',
  'usage',
  'breakers',
  'resetBreaker',
  'pendingApprovals',
  'decideApproval',
  'auditLog',
  'approvalRules',
  'addApprovalRule',
  'removeApprovalRule',
  'shortcuts',
  'defineShortcut',
  'devices',
  'deviceScreen',
  'deviceTap',
  'deviceSwipe',
  'deviceLogcat',
  'browser',
  'browserScreen',
  'getSettings',
  'updateSettings',
  'terminals',
  'terminalScreen',
  'terminalControl',
  'terminalInput',
  'clientTokens',
  'createClientToken',
  'revokeClientToken',
  'skills',
  'setSkillEnabled',
  'githubStatus',
  'setGithubToken',
] as const;

export type MethodNameFromList = (typeof METHOD_NAME_LIST)[number];

export const EVENT_CHANNEL = 'toolgate:event';
export const methodChannel = (method: string): string => `toolgate:${method}`;
