/** The host-side utility tools. get_location and notification_read are device tools and live with them. */
import type { Tool } from '../core/tool';
import { calculate } from './calculate';
import { textTransform } from './text-transform';

export function utilityTools(): Tool[] {
  return [calculate, textTransform] as Tool[];
}

export { calculate, textTransform };
