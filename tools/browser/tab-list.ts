/**
 * The open tabs of the session in order, and which one the tools act on. A tab opened by the page
 * (a popup, a target=_blank link) becomes the active one, as in a browser; when the active tab
 * closes, the last remaining one takes over.
 */
import type { Page } from 'playwright-core';
import { type Disposable, Emitter } from '../core/disposable';

export interface TabInfo {
  id: number;
  /** 0-based position in the tab list. */
  index: number;
  url: string;
  title: string;
  active: boolean;
}

interface Tab {
  id: number;
  page: Page;
  detach: Disposable[];
  /** Last title seen, for synchronous readers (the UI's view); refreshed on each page load. */
  title: string;
}

export class TabList {
  private tabs: Tab[] = [];
  private activeId: number | undefined;
  private nextId = 1;
  private readonly changed = new Emitter<Page | undefined>();

  has(page: Page): boolean {
    return this.tabs.some((t) => t.page === page);
  }

  /** Adds a tab and makes it active; `detach` is disposed when the tab leaves the list. */
  add(page: Page, detach: Disposable[]): void {
    if (this.has(page)) return;
    const tab: Tab = { id: this.nextId++, page, detach, title: '' };
    this.tabs.push(tab);
    this.setActive(tab.id);
  }

  remove(page: Page): void {
    const tab = this.tabs.find((t) => t.page === page);
    if (!tab) return;
    this.tabs = this.tabs.filter((t) => t !== tab);
    for (const d of tab.detach) d.dispose();
    if (this.activeId === tab.id) this.setActive(this.tabs.at(-1)?.id);
  }

  clear(): void {
    for (const tab of this.tabs) for (const d of tab.detach) d.dispose();
    this.tabs = [];
    this.setActive(undefined);
  }

  /** Activates the tab at `index`; undefined when there is none. */
  activateIndex(index: number): Page | undefined {
    const tab = this.tabs[index];
    if (tab) this.setActive(tab.id);
    return tab?.page;
  }

  active(): Page | undefined {
    const page = this.tabs.find((t) => t.id === this.activeId)?.page;
    return page && !page.isClosed() ? page : undefined;
  }

  summary(): { count: number; activeIndex: number } {
    return { count: this.tabs.length, activeIndex: this.tabs.findIndex((t) => t.id === this.activeId) };
  }

  /** The tabs with fresh titles (asks each page). */
  async infos(): Promise<TabInfo[]> {
    await Promise.all(this.tabs.map((tab) => this.refreshTitle(tab.page)));
    return this.list();
  }

  /** The tabs with the titles last seen, without asking the browser. */
  list(): TabInfo[] {
    return this.tabs.map((tab, index) => ({
      id: tab.id,
      index,
      url: tab.page.url(),
      title: tab.title,
      active: tab.id === this.activeId,
    }));
  }

  async refreshTitle(page: Page): Promise<void> {
    const tab = this.tabs.find((t) => t.page === page);
    if (tab) tab.title = await page.title().catch(() => tab.title);
  }

  onActiveChanged(listener: (page: Page | undefined) => void): Disposable {
    return this.changed.on(listener);
  }

  private setActive(id: number | undefined): void {
    const before = this.activeId;
    this.activeId = id;
    if (before !== id) this.changed.emit(this.active());
  }
}
