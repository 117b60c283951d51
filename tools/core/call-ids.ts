/**
 * Call ids (docs/architecture.md#traces, ToolCallIds): unique within a host's life and sortable by
 * creation. A random per-process prefix and a counter cost far less than a UUID per call on a hot
 * path.
 */
import { randomBytes } from 'node:crypto';

const prefix = randomBytes(3).toString('hex');
let counter = 0;

export function newCallId(): string {
  counter++;
  return `${prefix}-${counter.toString(36).padStart(6, '0')}`;
}
