/**
 * The GitHub token in the desktop app, behind the GithubTokenStore port of tools/github: encrypted
 * with Electron's safeStorage, whose key the OS keychain holds (Keychain on macOS, DPAPI on
 * Windows, the Secret Service or KWallet on Linux), into DATA/github-token.enc, mode 0600.
 *
 * Where there is no keychain, safeStorage would still "encrypt": on Linux without a keyring its
 * backend is basic_text, a key built into Chromium, which anyone holding the file can undo. That
 * is obfuscation, and the Settings page would then claim a protection the token does not have. So
 * the store falls back to what headless Toolgate does, a 0600 file readable by this user account
 * only, and says so in Settings (the warning). Once a keyring is there, the next start moves a
 * token from that file into the keychain. docs/architecture.md#github says the same.
 *
 * Only the port's synchronous methods are used (encryptString, decryptString): the port is read
 * while a call runs, and the decrypted token is kept in this process's memory from then on.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SafeStorage } from 'electron';
import { type GithubTokenStore, TOKEN_PATTERN, fileTokenStore, writeOwnerOnly } from '../../tools/github';

export type SafeStorageApi = Pick<
  SafeStorage,
  'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'
>;

/** The encrypted token's file in the data dir (a host secret: no file tool may read it). */
export const KEYCHAIN_TOKEN_FILE = 'github-token.enc';
/** The 0600 file headless Toolgate uses, and the desktop app where no keychain is. */
export const PLAIN_TOKEN_FILE = 'github-token';

const NO_KEYCHAIN =
  'The OS keychain is not available to Toolgate, so a token set here is kept unencrypted in a file of the data dir ' +
  'that only your user account can read.';
const NO_KEYRING =
  'No keyring (Secret Service or KWallet) was found, so Electron could only obfuscate the token with a key built ' +
  'into it. Toolgate does not count that as encryption: a token set here is kept unencrypted in a file of the data ' +
  'dir that only your user account can read. Start a keyring (for ' +
  'example gnome-keyring) and restart Toolgate to move it there.';

/** Why the keychain cannot keep the token here, or undefined when it can. Call after app ready. */
export function keychainMissing(safeStorage: SafeStorageApi, platform: NodeJS.Platform): string | undefined {
  if (!safeStorage.isEncryptionAvailable()) return NO_KEYCHAIN;
  if (platform !== 'linux') return undefined;
  const backend = safeStorage.getSelectedStorageBackend();
  // basic_text: a built-in key; unknown: asked before ready, so nothing says a keyring is behind it.
  return backend === 'basic_text' || backend === 'unknown' ? NO_KEYRING : undefined;
}

/** The token store the desktop app hands the host: the keychain when there is one, else the 0600 file, said plainly. */
export function desktopTokenStore(
  safeStorage: SafeStorageApi,
  dataDir: string,
  platform: NodeJS.Platform = process.platform,
): GithubTokenStore {
  const plain = fileTokenStore(join(dataDir, PLAIN_TOKEN_FILE));
  const missing = keychainMissing(safeStorage, platform);
  const sealedPath = join(dataDir, KEYCHAIN_TOKEN_FILE);
  if (missing !== undefined)
    return {
      kind: plain.kind,
      warning: missing,
      read: plain.read,
      write: plain.write,
      // A token sealed while a keychain was there goes too: Remove leaves no copy behind.
      clear: () => {
        plain.clear();
        rmSync(sealedPath, { force: true });
      },
    };
  const backend = platform === 'linux' ? ` (${safeStorage.getSelectedStorageBackend()})` : '';
  return keychainTokenStore(
    safeStorage,
    sealedPath,
    plain,
    `the data dir, encrypted with a key the OS keychain keeps${backend}`,
  );
}

function keychainTokenStore(
  safeStorage: SafeStorageApi,
  path: string,
  plain: GithubTokenStore,
  kind: string,
): GithubTokenStore {
  let known: { token: string | undefined } | undefined;

  const decrypted = (): string | undefined => {
    let sealed: Buffer;
    try {
      sealed = readFileSync(path);
    } catch {
      return undefined;
    }
    try {
      const token = safeStorage.decryptString(sealed).trim();
      return TOKEN_PATTERN.test(token) ? token : undefined;
    } catch {
      // Sealed under a key this keychain no longer has (another account, a reset keyring): not set.
      return undefined;
    }
  };

  const store: GithubTokenStore = {
    kind,
    read() {
      if (known) return known.token;
      let token = decrypted();
      const left = token === undefined ? plain.read() : undefined;
      if (left !== undefined) {
        token = left;
        try {
          // Set while no keychain was there: moved into it, and the unencrypted copy removed.
          store.write(left);
        } catch {
          // The keychain refused to seal it: the 0600 file stays, and is read as before.
        }
      }
      known = { token };
      return token;
    },
    write(token) {
      writeOwnerOnly(path, safeStorage.encryptString(token));
      plain.clear();
      known = { token };
    },
    clear() {
      rmSync(path, { force: true });
      plain.clear();
      known = { token: undefined };
    },
  };
  return store;
}
