/** Fixtures for the pipeline tests: small tools with declared metadata, and a registry of them. */
import { z } from 'zod';
import {
  type Tool,
  type ToolAnnotations,
  type ToolContext,
  type ToolMetadataDeclaration,
  type ToolReturn,
  type RunPolicyName,
  ToolRegistry,
  defineTool,
} from '../../tools/core';

export const READ_ONLY: Partial<ToolAnnotations> = {
  readOnlyHint: true,
  idempotentHint: true,
  destructiveHint: false,
  openWorldHint: false,
};
export const MUTATING: Partial<ToolAnnotations> = {
  readOnlyHint: false,
  idempotentHint: false,
  destructiveHint: false,
  openWorldHint: false,
};
export const DESTRUCTIVE: Partial<ToolAnnotations> = {
  readOnlyHint: false,
  idempotentHint: false,
  destructiveHint: true,
  openWorldHint: false,
};

export const textInput = z.object({
  text: z.string().describe('some text'),
  count: z.number().int().optional().describe('how many'),
});

export interface FixtureOptions {
  annotations?: Partial<ToolAnnotations>;
  metadata?: ToolMetadataDeclaration;
  runPolicy?: RunPolicyName;
  selfGated?: boolean;
  input?: z.ZodType;
}

/** A tool with the text input and the given behaviour; read-only and LOW risk unless told otherwise. */
export function fixtureTool(
  id: string,
  run: (args: { text: string; count?: number }, ctx: ToolContext) => Promise<ToolReturn> | ToolReturn,
  options: FixtureOptions = {},
): Tool {
  return defineTool({
    id,
    description: `Fixture tool ${id}.`,
    input: (options.input ?? textInput) as typeof textInput,
    metadata: options.metadata ?? { category: 'utility', risk: 'LOW' },
    annotations: options.annotations ?? READ_ONLY,
    runPolicy: options.runPolicy,
    selfGated: options.selfGated,
    run,
  }) as Tool;
}

export function registryOf(...tools: Tool[]): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool, 'REJECT');
  return registry;
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A promise's state without waiting for it. */
export async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}
