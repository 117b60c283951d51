/** What an adb device state means to a person, and what to do about it. */
import type { BadgeTone } from '../../components/Badge';

export interface StateMeaning {
  label: string;
  tone: BadgeTone;
  /** Why the tools cannot use the device and how to fix it; undefined when it is usable. */
  advice?: string;
}

export function deviceStateMeaning(state: string): StateMeaning {
  switch (state) {
    case 'device':
      return { label: 'online', tone: 'good' };
    case 'offline':
      return {
        label: 'offline',
        tone: 'warn',
        advice: 'The device stopped answering adb. Reconnect the cable (or Wi-Fi debugging), or run `adb reconnect`.',
      };
    case 'unauthorized':
      return {
        label: 'unauthorized',
        tone: 'bad',
        advice:
          'Unlock the phone and accept the "Allow USB debugging?" prompt; tick "Always allow from this computer".',
      };
    case 'authorizing':
    case 'connecting':
      return {
        label: state,
        tone: 'info',
        advice: 'adb is still connecting to the device; it becomes usable in a moment.',
      };
    default:
      return {
        label: state,
        tone: 'warn',
        advice: `adb reports the state "${state}"; the device tools need the state "device".`,
      };
  }
}
