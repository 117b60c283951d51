/** The tool a breaker belongs to: its key is the tool id, or `toolId@<digest>` for one target of the tool. */
import type { BreakerView } from '../../../../shared/contract';

export function breakerTool(view: Pick<BreakerView, 'toolId' | 'target'>): string {
  return view.target !== undefined && view.toolId.endsWith(`@${view.target}`)
    ? view.toolId.slice(0, view.toolId.length - view.target.length - 1)
    : view.toolId;
}
