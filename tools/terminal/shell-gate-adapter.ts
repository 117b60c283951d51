/**
 * The one place the terminal family reaches into shell_execute's command gate: its public verdict
 * on a command line (read runs, ask waits for a person, deny is refused), so host and device
 * terminals judge `terminal.run` exactly as shell_execute does, whatever the gate's internals become.
 */
import { judgeCommandLine } from '../devices';

export type GateVerdict = 'read' | 'ask' | 'deny';

export interface GateJudgement {
  verdict: GateVerdict;
  /** Why, for the person and the model (empty when read). */
  reasons: string[];
  /** The names of the commands the gate judged (wrappers and what they run). */
  commands: string[];
}

export function judgeTerminalCommand(command: string): GateJudgement {
  const j = judgeCommandLine(command);
  return { verdict: j.verdict, reasons: j.reasons, commands: j.commands };
}
