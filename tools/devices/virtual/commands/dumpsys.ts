/**
 * `dumpsys SERVICE`: the lines tools grep for, in Android 13's wording.
 * Foreground app: `dumpsys activity activities | grep mResumedActivity` (also `topResumedActivity=`
 * and `ResumedActivity:`) or `dumpsys window | grep mCurrentFocus` (also `mFocusedApp=`).
 */
import type { VirtualPhone } from '../phone';
import { PLAYBACK_STATE_CODES } from '../phone/services';
import { strftime } from './basic';
import type { CommandHandler } from './types';

function hexId(text: string): string {
  let h = 0x811c9dc5;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0').slice(0, 7);
}

function activityRecord(phone: VirtualPhone): string {
  const fg = phone.foreground();
  return `ActivityRecord{${hexId(fg.activity)} u0 ${phone.foregroundComponent()} t${(phone.getPackage(fg.packageName)?.uid ?? 1000) % 1000}}`;
}

function windowName(phone: VirtualPhone): string {
  const fg = phone.foreground();
  return `Window{${hexId(`w${fg.activity}`)} u0 ${fg.packageName}/${fg.activity}}`;
}

function time(ms: number): string {
  return strftime('%F %T', ms);
}

const SERVICES: Record<string, (phone: VirtualPhone, args: string[]) => string> = {
  activity: (phone) =>
    [
      'ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)',
      'Display #0 (activities from top to bottom):',
      `  * Task{${hexId(phone.foreground().packageName)} #1 type=standard A=${phone.foreground().packageName} U=0 visible=true}`,
      `    topResumedActivity=${activityRecord(phone)}`,
      `    mResumedActivity: ${activityRecord(phone)}`,
      `  ResumedActivity: ${activityRecord(phone)}`,
      `  mFocusedApp=${activityRecord(phone)}`,
      '',
    ].join('\n'),
  window: (phone) =>
    [
      'WINDOW MANAGER WINDOWS (dumpsys window windows)',
      `  mCurrentFocus=${windowName(phone)}`,
      `  mFocusedApp=${activityRecord(phone)}`,
      `  mInputMethodWindow=${phone.keyboardShown ? 'Window{1a2b3c4 u0 InputMethod}' : 'null'}`,
      `  init=${phone.screen.width}x${phone.screen.height} ${phone.screen.density}dpi cur=${phone.screen.width}x${phone.screen.height} app=${phone.screen.width}x${phone.screen.height - 48}`,
      '',
    ].join('\n'),
  input_method: (phone) =>
    [
      'Current Input Method Manager state:',
      `  mCurMethodId=${phone.services.setting('secure', 'default_input_method') ?? ''}`,
      `  mCurFocusedWindowClient=${phone.focus ? windowName(phone) : 'null'}`,
      `  mServedView=${phone.focus ? phone.focus.fieldId : 'null'}`,
      `  mInputShown=${phone.keyboardShown}`,
      `  mShowRequested=${phone.keyboardShown}`,
      '',
    ].join('\n'),
  power: (phone) =>
    [
      'POWER MANAGER (dumpsys power)',
      `  mWakefulness=${phone.awake ? 'Awake' : 'Asleep'}`,
      `  mInteractive=${phone.awake}`,
      `  mHoldingDisplaySuspendBlocker=${phone.awake}`,
      `  Display Power: state=${phone.awake ? 'ON' : 'OFF'}`,
      '',
    ].join('\n'),
  package: (phone, args) => {
    const name = args.find((a) => !a.startsWith('-'));
    const record = name ? phone.getPackage(name) : undefined;
    if (!record)
      return name
        ? `Unable to find package: ${name}\n`
        : phone
            .listPackages()
            .map((p) => `Package [${p.info.packageName}]\n`)
            .join('');
    const { info } = record;
    return [
      'Packages:',
      `  Package [${info.packageName}] (${hexId(info.packageName)}):`,
      `    userId=${record.uid}`,
      `    pkg=Package{${hexId(info.packageName)} ${info.packageName}}`,
      `    codePath=${record.codePath}`,
      `    versionCode=${info.versionCode} minSdk=24 targetSdk=33`,
      `    versionName=${info.versionName}`,
      `    flags=[ ${info.system ? 'SYSTEM ' : ''}HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]`,
      `    timeStamp=${time(record.lastUpdateTime)}`,
      `    firstInstallTime=${time(record.firstInstallTime)}`,
      `    lastUpdateTime=${time(record.lastUpdateTime)}`,
      `    installerPackageName=${record.installer ?? 'null'}`,
      ...info.activities.map((a) => `    Activity: ${a}`),
      '',
    ].join('\n');
  },
  media_session: (phone) => {
    const m = phone.services.media;
    const t = m.current();
    return [
      'MEDIA SESSION SERVICE (dumpsys media_session)',
      '',
      '  Sessions Stack - have 1 sessions:',
      `    MusicService ${m.ownerPackage}/MusicService (userId=0)`,
      `      package=${m.ownerPackage}`,
      `      active=true`,
      `      state=PlaybackState {state=${PLAYBACK_STATE_CODES[m.state]}, position=0, buffered position=0, speed=${m.state === 'playing' ? '1.0' : '0.0'}, updated=${phone.now()}, actions=3670, custom actions=[], active item id=${m.index}, error=null}`,
      `      metadata: size=4, description=${t.title}, ${t.artist}, ${t.album}`,
      '',
    ].join('\n');
  },
  location: (phone) => {
    const l = phone.services.location;
    const enabled = phone.services.locationEnabled;
    const loc = `Location[${l.provider} ${l.latitude.toFixed(6)},${l.longitude.toFixed(6)} hAcc=${l.accuracy} et=+${Math.max(0, Math.floor((l.time - phone.bootTime) / 1000))}s alt=${l.altitude}]`;
    return [
      'Location Manager State:',
      `  Location Setting: ${enabled ? 'ON' : 'OFF'}`,
      '  Last Known Locations:',
      `    ${l.provider}: ${enabled ? loc : 'null'}`,
      '',
    ].join('\n');
  },
  notification: (phone) => {
    const lines = ['Current Notification Manager state:', '  Notification List:'];
    for (const n of phone.services.notifications) {
      const uid = phone.getPackage(n.packageName)?.uid ?? 1000;
      lines.push(
        `    NotificationRecord(0x${hexId(`${n.packageName}${n.id}`)}0: pkg=${n.packageName} user=UserHandle{0} id=${n.id} tag=${n.tag ?? 'null'} importance=3 key=0|${n.packageName}|${n.id}|${n.tag ?? 'null'}|${uid}: Notification(channel=${n.channel} flags=0x10))`,
        `      uid=${uid} userId=0`,
        `      postTime=${n.postTime}`,
        '      extras={',
        `        android.title=String (${n.title})`,
        `        android.text=String (${n.text})`,
        '      }',
      );
    }
    return `${lines.join('\n')}\n`;
  },
  battery: () =>
    [
      'Current Battery Service state:',
      '  AC powered: false',
      '  USB powered: true',
      '  status: 2',
      '  health: 2',
      '  present: true',
      '  level: 87',
      '  scale: 100',
      '  temperature: 290',
      '',
    ].join('\n'),
};

export const dumpsys: CommandHandler = ({ argv, phone, out, err }) => {
  const [service, ...args] = argv.slice(1);
  if (service === undefined || service === '-l') {
    out(
      `Currently running services:\n${Object.keys(SERVICES)
        .map((s) => `  ${s}\n`)
        .join('')}`,
    );
    return 0;
  }
  const dump = SERVICES[service];
  if (!dump) {
    err(`Can't find service: ${service}\n`);
    return 0;
  }
  out(dump(phone, args));
  return 0;
};
