/**
 * A tool's precheck (Tool.precheck), a cheap read-only look at whether the call can succeed at
 * all, so that nobody is asked to approve a deletion of a file that is not there: a ToolCallError
 * it throws ends the call here; anything else it throws is ignored and the call goes on (the tool
 * checks again when it runs, so a precheck is never what keeps a call safe). It runs after the
 * deny rules (rule-stage.ts), so it never reads the target of a call a person ruled out.
 */
import { isToolCallError } from '../../result';
import type { Stage } from '../pipeline-call';

export const precheckStage: Stage = (c, next) => {
  const precheck = c.tool.precheck;
  if (precheck === undefined) return next(c);
  return (async () => {
    try {
      await precheck.call(c.tool, c.args);
    } catch (e) {
      if (isToolCallError(e)) return e.toResult();
    }
    return next(c);
  })();
};
