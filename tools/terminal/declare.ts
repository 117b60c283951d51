/** The terminal family's shared declarations: its category and tags, and the breaker kept per terminal. */
import type { ToolMetadataDeclaration } from '../core/metadata';
import type { RiskLevel } from '../core/risk';

export function terminalMetadata(risk: RiskLevel, ...tags: string[]): ToolMetadataDeclaration {
  return { category: 'terminal', risk, tags: ['terminal', ...tags] };
}

/** One terminal failing does not open the circuit for the others. */
export const perTerminal = (args: { id: string }): string => args.id;
