/**
 * The names of the contract's methods, free of any dependency, so the sandboxed preload can build
 * its named API without bundling zod. `contract.ts` checks at compile time that both agree.
 */
export const METHOD_NAME_LIST = [
  'info',
  'listTools',
  'listToolsets',
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
  'setClientToolsets',
  'skills',
  'setSkillEnabled',
  'githubStatus',
  'setGithubToken',
] as const;

export type MethodNameFromList = (typeof METHOD_NAME_LIST)[number];

export const EVENT_CHANNEL = 'toolgate:event';
/**
 * A device's live screen over IPC: open (invoke, answers a viewer id), messages to the page, acks and close from it.
 */
export const SCREEN_CHANNELS = {
  open: 'toolgate:screen-open',
  message: 'toolgate:screen',
  ack: 'toolgate:screen-ack',
  close: 'toolgate:screen-close',
} as const;
export const methodChannel = (method: string): string => `toolgate:${method}`;
