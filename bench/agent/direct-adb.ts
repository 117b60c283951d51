/**
 * A device command issued directly: one adbkit client kept for the whole run, and per command the
 * adb host protocol's own steps (`host:transport:SERIAL`, then the service, OKAY, read to the end),
 * as adbkit's ShellCommand does. What a tool's command costs on the device and the adb server,
 * without any tool around it.
 */
import Adb from '@devicefarmer/adbkit';

function encode(request: string): Buffer {
  const body = Buffer.from(request, 'utf8');
  return Buffer.concat([Buffer.from(body.length.toString(16).padStart(4, '0'), 'ascii'), body]);
}

export interface DirectAdb {
  /** Runs one service (`shell:…` or `exec:…`) and returns its bytes. */
  run(service: string): Promise<Buffer>;
}

export function directAdb(port: number, serial: string): DirectAdb {
  const device = Adb.createClient({ port }).getDevice(serial);
  return {
    async run(service) {
      const conn = await device.transport();
      try {
        conn.write(encode(service));
        const reply = await conn.parser.readAscii(4);
        if (reply !== 'OKAY') throw new Error(`adb answered ${reply} to '${service.slice(0, 40)}'`);
        return await conn.parser.readAll();
      } finally {
        conn.end();
      }
    },
  };
}
