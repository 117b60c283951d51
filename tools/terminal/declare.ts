/**
 * The terminal family's shared declarations: its category and tags, the fields several tools take
 * (worded once: docs/adding-a-tool.md#schemas-and-descriptions), and the breaker kept per terminal.
 */
import { z } from 'zod';
import type { ToolMetadataDeclaration } from '../core/metadata';
import type { RiskLevel } from '../core/risk';

export function terminalMetadata(risk: RiskLevel, ...tags: string[]): ToolMetadataDeclaration {
  return { category: 'terminal', risk, tags: ['terminal', ...tags] };
}

/** A terminal's id, as terminal.create returned it. */
export const TERMINAL_ID = z.string().min(1).max(64).describe('From terminal.create.');

/** One terminal failing does not open the circuit for the others. */
export const perTerminal = (args: { id: string }): string => args.id;
