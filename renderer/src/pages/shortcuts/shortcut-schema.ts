/** A shortcut's declared parameters as a JSON Schema, so the generated form can ask for them. */
import type { ShortcutDefinition } from '../../../../shared/contract';

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

export function paramsSchema(def: Pick<ShortcutDefinition, 'params'>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of def.params) {
    properties[p.name] = {
      type: JSON_TYPES.has(p.type) ? p.type : 'string',
      ...(p.description ? { description: p.description } : {}),
      ...(p.default !== undefined ? { default: p.default } : {}),
    };
    // A parameter is required unless it says otherwise or has a default (the shortcut contract).
    if (p.required ?? p.default === undefined) required.push(p.name);
  }
  return { type: 'object', properties, required };
}
