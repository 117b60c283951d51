/** `9.1 KB`, `870 B`: a tools/list cost as a person reads it (the host words it the same way for models). */
export function formatBytes(bytes: number): string {
  return bytes < 1000 ? `${bytes} B` : `${(bytes / 1000).toFixed(1)} KB`;
}
