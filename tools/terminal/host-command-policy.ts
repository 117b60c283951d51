/**
 * The shell gate on the person's own machine. shell_execute's rules were written for a phone, where
 * reading is harmless; on the host a read reaches the person's secrets: Toolgate's data dir holds the
 * key that signs UI links (host.json) and the tokens, and whoever reads them can approve their own
 * calls. So on the host a line the gate calls read-only runs at once only when it names nothing: no
 * file or path operand, no redirection, no expansion (`ls -la`, `pwd`, `date`, `id`, `uname -a`,
 * `df -h`, `echo`). Any operand asks, since a name in the folder may be a link to anywhere, and a
 * link made by another terminal can appear between a check and the run. Refused lines stay refused.
 */
import type { GateJudgement } from './shell-gate-adapter';

const OPTION = /^-[A-Za-z0-9-]*$/;
/**
 * Characters that expand, redirect, assign (`PATH=. ls` runs a file of the folder), recall history
 * (`!!`, `^a^b` run an earlier line again), name jobs or paths: any of them in the line asks.
 */
const EXPANDS = /[<>$`~/*?[\]{}\\'"=!^%]|\.\./;

export function hostJudgement(command: string, gate: GateJudgement): GateJudgement {
  if (gate.verdict !== 'read') return gate;
  // Judged on the line itself, conservatively: one word that is not an option (the command's name)
  // names nothing; a second (an operand, or a second command after `;`, `|`, `&&`) asks.
  const words = command.split(/\s+/).filter(Boolean);
  const namesSomething = EXPANDS.test(command) || words.filter((w) => !OPTION.test(w)).length > 1;
  if (!namesSomething) return gate;
  return {
    verdict: 'ask',
    reasons: [
      'on this machine a command that names files or paths needs approval: a read here can reach your secrets ' +
        '(Toolgate’s data dir holds the key that signs UI links)',
    ],
    commands: gate.commands,
  };
}
