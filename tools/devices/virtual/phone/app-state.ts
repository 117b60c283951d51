/** What lives only in an app's process: field drafts and scroll positions, by package and view id. */
export class AppState {
  private readonly fields = new Map<string, string>();
  private readonly scrolls = new Map<string, number>();

  field(packageName: string, fieldId: string): string {
    return this.fields.get(`${packageName}|${fieldId}`) ?? '';
  }

  setField(packageName: string, fieldId: string, text: string): void {
    this.fields.set(`${packageName}|${fieldId}`, text);
  }

  scroll(packageName: string, listId: string): number {
    return this.scrolls.get(`${packageName}|${listId}`) ?? 0;
  }

  setScroll(packageName: string, listId: string, offset: number): void {
    this.scrolls.set(`${packageName}|${listId}`, offset);
  }

  /** The process died: its drafts and positions are gone. */
  forget(packageName: string): void {
    for (const map of [this.fields, this.scrolls]) {
      for (const key of [...map.keys()]) if (key.startsWith(`${packageName}|`)) map.delete(key);
    }
  }
}
