/** Every command the device shell knows, by name. */
import { am, monkey } from './am';
import { basicCommands } from './basic';
import { cmd, media } from './cmd';
import { dumpsys } from './dumpsys/index';
import { fileCommands } from './files';
import { input } from './input';
import { logcat } from './logcat';
import { pm } from './pm';
import { screenCommands } from './screen';
import { screenrecord } from '../display/screenrecord';
import { sttyCommands } from './stty';
import { systemCommands } from './system';
import type { DeviceProfile } from '../profiles';
import type { CommandTable } from './types';

const processCommands: CommandTable = {
  pidof({ argv, phone, out }) {
    const pids = argv
      .slice(1)
      .map((name) => phone.pidOf(name))
      .filter((p): p is number => p !== undefined);
    if (pids.length === 0) return 1;
    out(`${pids.join(' ')}\n`);
    return 0;
  },
  ps({ phone, out }) {
    out('USER           PID  PPID        VSZ    RSS WCHAN            ADDR S NAME\n');
    out('root             1     0   10932512   4412 0                   0 S init\n');
    out('system         612     1   14927376 201048 0                   0 S system_server\n');
    for (const [name, pid] of phone.runningProcesses()) {
      const uid = phone.getPackage(name)?.uid ?? 10000;
      out(
        `${(uid < 10000 ? 'system' : `u0_a${uid - 10000}`).padEnd(10)} ${String(pid).padStart(7)}   301   13998836 ` +
          `112764 0                   0 S ${name}\n`,
      );
    }
    return 0;
  },
};

const COMMANDS: CommandTable = {
  ...basicCommands,
  ...fileCommands,
  ...systemCommands,
  ...screenCommands,
  ...processCommands,
  ...sttyCommands,
  am,
  monkey,
  pm,
  cmd,
  dumpsys,
  input,
  logcat,
  screenrecord,
};

/** The programs a profile's phone has: `media` only before Android 10 (cmds/media). */
export function commandsFor(profile: DeviceProfile): CommandTable {
  return profile.android.mediaProgram ? { ...COMMANDS, media } : COMMANDS;
}
