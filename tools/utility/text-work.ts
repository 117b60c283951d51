/** text_transform's computation, run in a CPU worker: segmenting or sorting a 1 MB text takes long. */
import { OPERATIONS, type TextOperation, countText } from './text-operations';

export interface TextTransformInput {
  operation: TextOperation;
  text: string;
}

export function textTransformTask(
  input: TextTransformInput,
): { operation: 'count'; counts: Record<string, number> } | { operation: TextOperation; result: string } {
  if (input.operation === 'count') return { operation: 'count', counts: countText(input.text) };
  return { operation: input.operation, result: OPERATIONS[input.operation](input.text) };
}
