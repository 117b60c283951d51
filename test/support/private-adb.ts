/**
 * A private adb server for one test host: a free port, and a way to stop it. Hosts in different
 * test files then never see each other's virtual phones on the shared default server.
 */
import { execFile } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export function killAdbServer(port: number): Promise<void> {
  return new Promise((resolve) =>
    execFile('adb', ['-P', String(port), 'kill-server'], { timeout: 10_000 }, () => resolve()),
  );
}
