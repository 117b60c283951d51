/** The navigation's pages, in order. */
export const PAGES = [
  { id: 'overview', label: 'Overview' },
  { id: 'tools', label: 'Tools' },
  { id: 'traces', label: 'Traces' },
  { id: 'latency', label: 'Latency' },
  { id: 'breakers', label: 'Breakers' },
  { id: 'approvals', label: 'Approvals' },
  { id: 'shortcuts', label: 'Shortcuts' },
  { id: 'skills', label: 'Skills' },
  { id: 'devices', label: 'Devices' },
  { id: 'browser', label: 'Browser' },
  { id: 'terminals', label: 'Terminals' },
  { id: 'settings', label: 'Settings' },
] as const;

export type PageId = (typeof PAGES)[number]['id'];

export function isPageId(id: string): id is PageId {
  return PAGES.some((p) => p.id === id);
}
