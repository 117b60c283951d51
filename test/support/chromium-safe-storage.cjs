/**
 * Electron's safeStorage as Chromium implements it on Linux (components/os_crypt): AES-128-CBC
 * with an IV of 16 spaces and the key PBKDF2-SHA1(password, "saltysalt", 1 round), the blob
 * prefixed with its version. With the backend basic_text (a desktop with no keyring; the default,
 * as on a headless machine) the password is Chromium's built-in "peanuts" and blobs start "v10":
 * anyone can undo them. With a keyring backend (gnome_libsecret, kwallet…) the password is the
 * secret the keyring keeps and blobs start "v11".
 *
 * From the environment: TOOLGATE_STANDIN_STORAGE_BACKEND (basic_text, gnome_libsecret, kwallet5…;
 * "unavailable" makes isEncryptionAvailable() false) and TOOLGATE_STANDIN_KEYRING (the keyring's
 * secret; else a random one for this process, as a fresh keyring would hold).
 */
'use strict';
const crypto = require('node:crypto');

const IV = Buffer.alloc(16, ' ');
const sealKey = (password) => crypto.pbkdf2Sync(password, 'saltysalt', 1, 16, 'sha1');

/** The basic_text key everyone has: what "encryption" amounts to without a keyring. */
function openBasicText(encrypted) {
  const decipher = crypto.createDecipheriv('aes-128-cbc', sealKey('peanuts'), IV);
  return Buffer.concat([decipher.update(encrypted.subarray(3)), decipher.final()]).toString('utf8');
}

function chromiumSafeStorage(env) {
  const backend = env.TOOLGATE_STANDIN_STORAGE_BACKEND ?? 'basic_text';
  const available = backend !== 'unavailable';
  const keyring = env.TOOLGATE_STANDIN_KEYRING ?? crypto.randomBytes(16).toString('base64');
  const sealing =
    backend === 'basic_text' || !available
      ? { prefix: 'v10', password: 'peanuts' }
      : { prefix: 'v11', password: keyring };
  const key = sealKey(sealing.password);
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => (available ? backend : 'basic_text'),
    encryptString(plainText) {
      if (!available)
        throw new Error(
          'Error while encrypting the text provided to safeStorage.encryptString. Encryption is not available.',
        );
      const cipher = crypto.createCipheriv('aes-128-cbc', key, IV);
      return Buffer.concat([Buffer.from(sealing.prefix), cipher.update(plainText, 'utf8'), cipher.final()]);
    },
    decryptString(encrypted) {
      if (!available || encrypted.subarray(0, 3).toString() !== sealing.prefix)
        throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      const decipher = crypto.createDecipheriv('aes-128-cbc', key, IV);
      return Buffer.concat([decipher.update(encrypted.subarray(3)), decipher.final()]).toString('utf8');
    },
  };
}

module.exports = { chromiumSafeStorage, openBasicText };
