/**
 * Schema validation (docs/architecture.md#schema-validation): the tool's zod input checks the
 * arguments, and from here on the stages and the tool see the parsed value (defaults filled in,
 * undeclared fields dropped). A failure is INVALID_ARGUMENT naming every bad field.
 */
import type { Stage } from '../pipeline-call';

export function validationStage(): Stage {
  return (c, next) => {
    const validated = c.tool.validate(c.args);
    if (!validated.ok) return validated;
    c.args = validated.value;
    return next(c);
  };
}
