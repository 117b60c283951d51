/**
 * `device:<serial>`: an interactive shell on a phone with a PTY, over the adb server: the service
 * `shell,v2,TERM=xterm-256color,pty:` (what `adb shell` opens from a terminal), carried in shell v2
 * packets so window size changes reach the phone's PTY. The phone's line discipline handles the
 * keys, so INT, QUIT and TSTP are Ctrl-C, Ctrl-\ and Ctrl-Z; HUP and KILL close the session
 * (adbd hangs up the phone's PTY, ending the shell's session); TERM has no key and is refused.
 */
import type { Duplex } from 'node:stream';
import { ToolCallError } from '../../core/result';
import type { DeviceService } from '../../devices';
import { openDeviceConnection } from '../../devices/manager/adb-channel';
import { V2, V2Reader, v2Packet, windowSizePacket } from '../../devices/manager/shell-v2';
import type { ProcessExit, SpawnRequest, TerminalProcess } from './types';

export const PTY_SERVICE = 'shell,v2,TERM=xterm-256color,pty:';
const OPEN_TIMEOUT_MS = 15_000;

export async function spawnDeviceShell(
  service: DeviceService,
  serial: string,
  req: Pick<SpawnRequest, 'cols' | 'rows'>,
): Promise<TerminalProcess> {
  const resolved = await service.resolveSerial(serial);
  const opening = AbortSignal.timeout(OPEN_TIMEOUT_MS);
  const conn = await openDeviceConnection(service.manager.client, resolved, PTY_SERVICE, opening);
  const socket = conn.parser.raw() as Duplex;
  let exited: ProcessExit | undefined;
  let status: number | null = null;
  const dataListeners: ((d: Buffer) => void)[] = [];
  const exitListeners: ((e: ProcessExit) => void)[] = [];
  const finish = () => {
    if (exited) return;
    exited = { exitCode: status };
    for (const l of exitListeners) l(exited);
  };
  const reader = new V2Reader((id, payload) => {
    if (id === V2.stdout || id === V2.stderr) for (const l of dataListeners) l(Buffer.from(payload));
    else if (id === V2.exit) status = payload.readUInt8(0);
  });
  socket.on('data', (chunk: Buffer) => reader.push(chunk));
  socket.once('close', finish);
  socket.once('error', () => socket.destroy());
  const send = (packet: Buffer) => {
    if (!exited && !socket.destroyed) socket.write(packet);
  };
  send(windowSizePacket(req.cols, req.rows));
  const hangUp = () => {
    socket.destroy();
  };

  return {
    describe: `adb shell (PTY) on ${resolved}`,
    write: (data) => send(v2Packet(V2.stdin, data)),
    resize: (cols, rows) => send(windowSizePacket(cols, rows)),
    signal: (sig) => {
      if (sig === 'INT') send(v2Packet(V2.stdin, '\x03'));
      else if (sig === 'QUIT') send(v2Packet(V2.stdin, '\x1c'));
      else if (sig === 'TSTP') send(v2Packet(V2.stdin, '\x1a'));
      else if (sig === 'HUP' || sig === 'KILL') hangUp();
      else
        throw new ToolCallError('UNSUPPORTED', 'A phone terminal cannot be sent TERM: adb carries keys, not signals.', {
          hint: 'Send INT (Ctrl-C) to stop the program in front, or HUP to end the whole shell session.',
        });
    },
    foreground: () => ({ kind: 'unknown' }),
    onData: (listener) => {
      dataListeners.push(listener);
    },
    onExit: (listener) => {
      if (exited) listener(exited);
      else exitListeners.push(listener);
    },
    end: async () => {
      if (exited) return;
      const closed = new Promise<void>((resolve) => exitListeners.push(() => resolve()));
      hangUp();
      await closed;
    },
  };
}
