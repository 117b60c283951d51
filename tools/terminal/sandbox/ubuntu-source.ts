/**
 * Where an Ubuntu root file system comes from: the setting terminalUbuntuSource, which the person
 * sets to an Ubuntu mirror (http(s) URL; debootstrap needs its release script and the Ubuntu
 * archive keyring) or to a rootfs tarball on this machine. Whatever is missing or unreachable is
 * UNSUPPORTED with the setting's name, so the model can tell the person what to set.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { ToolCallError } from '../../core/result';
import type { RootfsSource } from './rootfs-store';

export const UBUNTU_SETTING = 'terminalUbuntuSource';
export const UBUNTU_KEYRING = '/usr/share/keyrings/ubuntu-archive-keyring.gpg';
export const UBUNTU_RELEASE = /^[a-z]{3,20}$/;

export interface UbuntuPlan {
  source: RootfsSource;
  keyring?: string;
}

function unsupported(message: string, hint: string): ToolCallError {
  return new ToolCallError('UNSUPPORTED', message, { hint, data: { setting: UBUNTU_SETTING } });
}

export function describeUbuntuSource(
  value: string | undefined,
): { kind: 'none' } | { kind: 'mirror'; url: string } | { kind: 'tarball'; path: string } | { kind: 'invalid' } {
  if (!value) return { kind: 'none' };
  if (/^https?:\/\//.test(value)) return { kind: 'mirror', url: value.replace(/\/+$/, '') };
  if (isAbsolute(value)) return { kind: 'tarball', path: value };
  return { kind: 'invalid' };
}

export async function reachable(url: string, timeoutMs = 10_000): Promise<string | undefined> {
  try {
    const r = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs) });
    return r.ok ? undefined : `it answered HTTP ${r.status}`;
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return `it cannot be reached (${cause?.code ?? cause?.message ?? (e as Error).message})`;
  }
}

/** The plan for one release, or UNSUPPORTED naming the setting. */
export async function ubuntuPlan(setting: string | undefined, release: string, scripts: string): Promise<UbuntuPlan> {
  const source = describeUbuntuSource(setting);
  const fix =
    `Ask the user to set "${UBUNTU_SETTING}" in Toolgate’s Settings to an Ubuntu mirror (e.g. ` +
    `http://archive.ubuntu.com/ubuntu) or a rootfs tarball; or use the Debian sandbox (terminal.linux_bootstrap).`;
  if (source.kind === 'none')
    throw unsupported(`No Ubuntu source is configured (the setting ${UBUNTU_SETTING} is empty).`, fix);
  if (source.kind === 'invalid')
    throw unsupported(`The setting ${UBUNTU_SETTING} is neither an http(s) mirror URL nor an absolute path.`, fix);
  if (source.kind === 'tarball') {
    if (!existsSync(source.path) || !statSync(source.path).isFile())
      throw unsupported(`The Ubuntu tarball the setting ${UBUNTU_SETTING} names does not exist (${source.path}).`, fix);
    return { source: { kind: 'tarball', path: source.path } };
  }
  if (!existsSync(join(scripts, release)))
    throw unsupported(
      `debootstrap on this machine does not know the Ubuntu release '${release}'.`,
      'Use a release it knows (e.g. jammy, noble), or set a rootfs tarball as the Ubuntu source.',
    );
  if (!existsSync(UBUNTU_KEYRING))
    throw unsupported(
      `The Ubuntu archive keyring is not installed (${UBUNTU_KEYRING}), so packages from ` +
        `${source.url} cannot be verified.`,
      `Ask the user to install the Debian package ubuntu-keyring, or to set "${UBUNTU_SETTING}" to a rootfs tarball.`,
    );
  const problem = await reachable(`${source.url}/dists/${release}/Release`);
  if (problem)
    throw unsupported(
      `The Ubuntu mirror the setting ${UBUNTU_SETTING} names (${source.url}) is not usable: ${problem}.`,
      fix,
    );
  return {
    source: { kind: 'debootstrap', distro: 'ubuntu', suite: release, mirror: source.url, variant: 'minbase' },
    keyring: UBUNTU_KEYRING,
  };
}
