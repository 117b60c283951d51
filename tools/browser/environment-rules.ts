/**
 * Environment rules for the browser tools, read from the browser's telemetry under `browser.*`
 * (browserTelemetryReading): a modal dialog pending, no page open, the page still loading. Each
 * refuses only on a fresh, known-bad reading, so missing or stale readings let the call through as
 * the device rules do. Loading is known only while it is recent: a page whose load never ends
 * (a hanging image) must not block the tools for good, so after the gate's freshness bound it
 * reads as unknown.
 */
import type { EnvironmentRule, TelemetryReading } from '../core/pipeline/environment-gate';
import type { Tool } from '../core/tool';
import type { BrowserManager } from './browser-manager';
import { describeDialog, dialogAdvice } from './dialogs';

export const BROWSER_TELEMETRY_KEYS = {
  'browser.started': 'true while a browser is running for the browser tools',
  'browser.pageOpen': 'true while a tab is open',
  'browser.dialogOpen': 'true while a modal dialog (alert, confirm, prompt, beforeunload) waits on the active tab',
  'browser.loading': 'true while the active tab loads a new document (known for 10 s after it started)',
} as const;
export type BrowserTelemetryKey = keyof typeof BROWSER_TELEMETRY_KEYS;

/** The tools that act on the active tab: a pending dialog freezes every one of them. */
export const PAGE_TOOL_IDS: ReadonlySet<string> = new Set([
  'browser_navigate',
  'browser_click',
  'browser_input',
  'browser_scroll',
  'browser_select',
  'browser_screenshot',
  'browser_snapshot',
  'browser_toggle',
  'browser_show',
  'browser_file_upload',
  'browser_date_input',
  'browser_context_summary',
]);

/** The tools that can act on an element `ref` of the latest snapshot. */
const REF_TOOL_IDS: ReadonlySet<string> = new Set([
  'browser_click',
  'browser_input',
  'browser_scroll',
  'browser_select',
  'browser_toggle',
  'browser_file_upload',
  'browser_date_input',
]);

/** The reading of a `browser.*` key now, from the manager's telemetry; undefined for any other key. */
export function browserTelemetryReading(manager: BrowserManager, key: string): TelemetryReading | undefined {
  if (!(key in BROWSER_TELEMETRY_KEYS)) return undefined;
  const t = manager.telemetry();
  switch (key as BrowserTelemetryKey) {
    case 'browser.started':
      return { value: t.started, at: t.observedAt };
    case 'browser.pageOpen':
      return { value: t.pageOpen, at: t.observedAt };
    case 'browser.dialogOpen':
      return { value: t.dialogOpen, at: t.observedAt };
    case 'browser.loading':
      // Stamped with when loading began: the gate's freshness bound then ends what it may infer.
      return t.loading ? { value: true, at: t.changedAt.loading } : { value: false, at: t.observedAt };
  }
}

function argsOf(args: unknown): Record<string, unknown> {
  return typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}

const usesRef = (args: unknown) => typeof argsOf(args).ref === 'string';

export function browserEnvironmentRules(manager: BrowserManager): EnvironmentRule[] {
  return [
    {
      id: 'browser-dialog-pending',
      appliesTo: (tool: Tool) => PAGE_TOOL_IDS.has(tool.id),
      check(read, args) {
        if (read('browser.dialogOpen') !== true) return undefined;
        // Answering the dialog is what unblocks the page.
        if (argsOf(args).dialog !== undefined) return undefined;
        const info = manager.dialogs.pending(manager.activePage());
        return {
          message:
            `the page is blocked by ${info ? describeDialog(info) : 'a modal dialog'}, so nothing on it can ` +
            'be used until it is answered',
          hint: info
            ? dialogAdvice(info)
            : 'Answer the dialog with browser_click {"dialog": "accept"} or {"dialog": "dismiss"}, then retry.',
        };
      },
    },
    {
      id: 'browser-no-page',
      appliesTo: (tool: Tool) => REF_TOOL_IDS.has(tool.id),
      check(read, args) {
        if (!usesRef(args)) return undefined;
        const started = read('browser.started');
        const open = read('browser.pageOpen');
        if (started !== false && open !== false) return undefined;
        return {
          message: 'no browser page is open, so there is no element for a ref to name',
          hint:
            'Open a page with browser_navigate, take a browser_snapshot ' +
            'to get element refs, then retry with one of those.',
        };
      },
    },
    {
      id: 'browser-page-loading',
      appliesTo: (tool: Tool) => REF_TOOL_IDS.has(tool.id),
      check(read, args) {
        if (!usesRef(args) || read('browser.loading') !== true) return undefined;
        return {
          message: 'the page is still loading a new document, so the refs of the last snapshot may no longer exist',
          hint:
            'Wait until it has loaded (browser_snapshot shows the new ' +
            'page and its refs), then retry with a ref from that snapshot.',
        };
      },
    },
  ];
}
