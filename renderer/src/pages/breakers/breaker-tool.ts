/**
 * The tool and target a breaker belongs to: its key is the tool id, or `toolId@<digest>` for one
 * target of the tool. A view made from a transition event carries only the key, so the digest is
 * read from the key when the view has no `target` (the host's keys end in 8 hex characters).
 */
import type { BreakerView } from '../../../../shared/contract';

const TARGET_SUFFIX = /@([0-9a-f]{8})$/;

export function breakerTarget(view: Pick<BreakerView, 'toolId' | 'target'>): string | undefined {
  return view.target ?? TARGET_SUFFIX.exec(view.toolId)?.[1];
}

export function breakerTool(view: Pick<BreakerView, 'toolId' | 'target'>): string {
  const target = breakerTarget(view);
  return target !== undefined && view.toolId.endsWith(`@${target}`)
    ? view.toolId.slice(0, view.toolId.length - target.length - 1)
    : view.toolId;
}
