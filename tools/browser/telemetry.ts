/**
 * Browser telemetry for the environment gate: is a browser running, is a page open, is a modal
 * dialog blocking it, is the page still loading, which URL. Each value carries the time it last
 * changed, so the gate can tell fresh from stale (and fail open on stale, as the seed requires).
 */
import type { DialogInfo } from './dialogs';

export interface BrowserTelemetryValues {
  started: boolean;
  pageOpen: boolean;
  dialogOpen: boolean;
  /** The active tab asked for a new document and its load event has not fired yet. */
  loading: boolean;
  url: string | undefined;
}

export interface BrowserTelemetry extends BrowserTelemetryValues {
  /** The open dialog on the active tab, when `dialogOpen`. */
  dialog?: DialogInfo;
  /** Epoch ms at which each value last changed. */
  changedAt: Record<keyof BrowserTelemetryValues, number>;
  /** Epoch ms at which these values were read. */
  observedAt: number;
}

const KEYS: Array<keyof BrowserTelemetryValues> = ['started', 'pageOpen', 'dialogOpen', 'loading', 'url'];

export class TelemetryTracker {
  private values: BrowserTelemetryValues = {
    started: false,
    pageOpen: false,
    dialogOpen: false,
    loading: false,
    url: undefined,
  };
  private readonly changedAt: Record<keyof BrowserTelemetryValues, number>;

  constructor(private readonly now: () => number) {
    const t = now();
    this.changedAt = { started: t, pageOpen: t, dialogOpen: t, loading: t, url: t };
  }

  observe(next: BrowserTelemetryValues): void {
    const t = this.now();
    for (const key of KEYS) if (this.values[key] !== next[key]) this.changedAt[key] = t;
    this.values = { ...next };
  }

  snapshot(dialog: DialogInfo | undefined): BrowserTelemetry {
    const out: BrowserTelemetry = { ...this.values, changedAt: { ...this.changedAt }, observedAt: this.now() };
    if (dialog) out.dialog = dialog;
    return out;
  }
}
