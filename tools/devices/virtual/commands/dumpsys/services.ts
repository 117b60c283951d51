/**
 * `dumpsys media_session`, `location` and `notification` in the layout of the profile's Android
 * (MediaSessionService / MediaSessionRecord.dump, LocationManagerService.dump,
 * NotificationRecord.dump; FORMATS.md).
 */
import type { VirtualPhone } from '../../phone';
import { PLAYBACK_STATE_CODES } from '../../phone/services';
import { hexId } from './ids';

const STATE_NAMES: Record<number, string> = { 1: 'STOPPED', 2: 'PAUSED', 3: 'PLAYING' };

export function mediaSession(phone: VirtualPhone): string {
  const m = phone.services.media;
  const modern = phone.profile.android.playbackStateNames;
  const sessionName = modern
    ? `${m.ownerPackage}/MusicService/1 (userId=0)`
    : `${m.ownerPackage}/MusicService (userId=0)`;
  const code = PLAYBACK_STATE_CODES[m.state];
  const state = modern ? `${STATE_NAMES[code]}(${code})` : String(code);
  const t = m.current();
  const uid = phone.getPackage(m.ownerPackage)?.uid ?? 10105;
  const session = m.exists
    ? [
        `    MusicService ${sessionName}`,
        `      ownerPid=${m.ownerPid}, ownerUid=${uid}, userId=0`,
        `      package=${m.ownerPackage}`,
        '      launchIntent=null',
        '      mediaButtonReceiver=null',
        '      active=true',
        '      flags=3',
        '      rating type=0',
        '      controllers: 1',
        `      state=PlaybackState {state=${state}, position=0, buffered position=0, ` +
          `speed=${m.state === 'playing' ? '1.0' : '0.0'}, updated=${phone.now() - phone.bootTime}, actions=3670, ` +
          `custom actions=[], active item id=${m.index}, error=null}`,
        '      audioAttrs=AudioAttributes: usage=USAGE_MEDIA content=CONTENT_TYPE_MUSIC flags=0x800 tags= bundle=null',
        modern
          ? '      volumeType=LOCAL, controlType=ABSOLUTE, max=0, current=0, volumeControlId=null'
          : '      volumeType=1, controlType=2, max=0, current=0',
        `      metadata: size=4, description=${t.title}, ${t.artist}, ${t.album}`,
        '      queueTitle=null, size=0',
      ]
    : [];
  return [
    'MEDIA SESSION SERVICE (dumpsys media_session)',
    '',
    '1 sessions listeners.',
    'Global priority session is null',
    'User Records:',
    'Record for full_user=0',
    '  Volume key long-press listener: null',
    '  Media key event listener: null',
    '  Last MediaButtonReceiver: null',
    `  Media button session is ${m.exists ? sessionName : 'null'}`,
    `  Sessions Stack - have ${m.exists ? 1 : 0} sessions:`,
    ...session,
    '',
  ].join('\n');
}

/** Location.toString: `Location[PROVIDER LAT,LNG hAcc=… et=+… alt=…]` (Android 12+ prints floats). */
function locationString(phone: VirtualPhone, legacy: boolean): string {
  const l = phone.services.location;
  const since = Math.max(0, l.time - phone.bootTime);
  const h = Math.floor(since / 3_600_000);
  const min = Math.floor(since / 60_000) % 60;
  const s = Math.floor(since / 1000) % 60;
  const et = `+${h > 0 ? `${h}h` : ''}${min}m${s}s${since % 1000}ms`;
  const acc = legacy ? String(Math.round(l.accuracy)) : l.accuracy.toFixed(1);
  return (
    `Location[${l.provider} ${l.latitude.toFixed(6)},${l.longitude.toFixed(6)} hAcc=${acc} et=${et} ` +
    `alt=${l.altitude.toFixed(1)} vel=0.0 bear=0.0]`
  );
}

export function location(phone: VirtualPhone): string {
  const services = phone.services;
  const enabled = services.locationEnabled;
  const l = services.location;
  if (phone.profile.android.dumps === 'legacy') {
    return [
      'Current Location Manager state:',
      '  Location Listeners:',
      '  Active Records by Provider:',
      '  Historical Records by Provider:',
      '  Last Known Locations:',
      ...(enabled ? [`    ${l.provider}: ${locationString(phone, true)}`] : []),
      '  Last Known Locations Coarse Intervals:',
      ...(enabled ? [`    ${l.provider}: ${locationString(phone, true)}`] : []),
      '',
    ].join('\n');
  }
  const users = phone.profile.users;
  const setting =
    users.length > 1
      ? ['    Location Setting: ', ...users.map((u) => `      [u${u}] ${u === 0 ? enabled : false}`)]
      : [`    Location Setting: ${enabled}`];
  const provider = (name: string) => [
    `    ${name} provider:`,
    `      last location=${enabled && l.provider === name ? locationString(phone, false) : 'null'}`,
    `      enabled=${enabled}`,
  ];
  return [
    'Location Manager State:',
    '  User Info:',
    `    current user: [${users.join(', ')}]`,
    '  Location Settings:',
    ...setting,
    '    Location Allow/Deny Packages:',
    '  Location Providers:',
    ...['passive', 'network', 'fused', 'gps'].flatMap(provider),
    '',
  ].join('\n');
}

/**
 * `dumpsys notification`: NotificationRecord.dump per posted notification. The extras print each
 * value as `Type (value)`, a multi-line text on as many lines; without --noredact Android 12+
 * prints ` [length=N]` instead of the text (older builds print the type alone).
 */
export function notifications(phone: VirtualPhone, args: string[]): string {
  const redact = !args.includes('--noredact');
  const legacy = phone.profile.android.dumps === 'legacy';
  const lines = ['Current Notification Manager state:', '  Notification List:'];
  const value = (text: string) => (!redact ? ` (${text})` : legacy ? '' : ` [length=${[...text].length}]`);
  for (const n of phone.services.notifications) {
    const uid = phone.getPackage(n.packageName)?.uid ?? 1000;
    const key = `0|${n.packageName}|${n.id}|${n.tag ?? 'null'}|${uid}`;
    lines.push(
      `    NotificationRecord(0x${hexId(`${n.packageName}${n.id}`)}0: pkg=${n.packageName} user=UserHandle{0} ` +
        `id=${n.id} tag=${n.tag ?? 'null'} importance=3 key=${key}: Notification(channel=${n.channel} shortcut=null ` +
        'contentView=null vibrate=null sound=null defaults=0x0 flags=0x10 color=0x00000000 vis=PRIVATE))',
      `      uid=${uid} userId=0`,
      `      opPkg=${n.packageName}`,
      `      icon=Icon(typ=RESOURCE pkg=${n.packageName} id=0x7f080001)`,
      '      flags=0x10',
      '      pri=0',
      `      key=${key}`,
      '      seen=false',
      `      groupKey=${key}`,
      '      notification=',
      '            fullscreenIntent=null',
      `            contentIntent=PendingIntent{${hexId(`i${n.id}`)}: android.os.BinderProxy@${hexId(`b${n.id}`)}}`,
      '            deleteIntent=null',
      '            number=0',
      '            groupAlertBehavior=0',
      `            when=${n.postTime}`,
      '            tickerText=null',
      '            contentView=null',
      '            color=0x00000000',
      '            extras={',
      `                android.title=String${value(n.title)}`,
      '                android.reduced.images=Boolean (true)',
      `                android.text=String${value(n.text)}`,
      '                android.showWhen=Boolean (true)',
      '            }',
      '      publicNotification=',
      '            None',
      `      mCreationTimeMs=${n.postTime}`,
      `      mUpdateTimeMs=${n.postTime}`,
      `      mInterruptionTimeMs=${n.postTime}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
