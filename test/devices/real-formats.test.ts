/**
 * Rule (issue 16): the device tools' readers take the shapes real phones print beyond what any
 * virtual profile shows — several media sessions with the media-button one last, named states the
 * profiles never reach, styled and redacted notification texts, a secondary user with location off,
 * resolver entries collapsed as "(2 filters)", Android 9 viewports, an override `wm size`, a rotated
 * UI dump, old lock-screen flags and named keyboard types (FORMATS.md names the sources).
 */
import { describe, expect, it } from 'vitest';
import { defaultDisplay, parseSurfaceFlingerIds, parseViewports } from '../../tools/devices/displays';
import { TelemetryStore } from '../../tools/core/pipeline/environment-gate';
import { ManualClock } from '../support/manual-clock';
import type { DeviceManager } from '../../tools/devices/manager/device-manager';
import { DeviceTelemetry, hardwareKeyboards, parseScreenState } from '../../tools/devices/manager/device-telemetry';
import { parseResolverActivities } from '../../tools/devices/tools/apps';
import { parseMediaSessions } from '../../tools/devices/tools/media';
import { locationEnabled, parseNotifications } from '../../tools/devices/tools/readers';
import { parseWmSize } from '../../tools/devices/wm-size';
import { parseUiDump } from '../../tools/devices/tools/ui-tree';

describe('media sessions', () => {
  const dump = [
    'MEDIA SESSION SERVICE (dumpsys media_session)',
    '  Media button session is com.spotify.music/spotify-media-session/7 (userId=0)',
    '  Sessions Stack - have 2 sessions:',
    '    BluetoothMediaBrowserService com.android.bluetooth/BluetoothMediaBrowserService/3 (userId=0)',
    '      package=com.android.bluetooth',
    '      active=false',
    '      state=null',
    '      metadata: null',
    '    spotify-media-session com.spotify.music/spotify-media-session/7 (userId=0)',
    '      package=com.spotify.music',
    '      active=true',
    '      state=PlaybackState {state=BUFFERING(6), position=1200, buffered position=0, speed=0.0, updated=99, ' +
      'actions=3670, custom actions=[], active item id=-1, error=null}',
    '      metadata: size=7, description=Song, Artist, Album',
  ].join('\n');

  it('puts the media-button session first and reads its named state', () => {
    const [first, second] = parseMediaSessions(dump);
    expect(first).toMatchObject({
      name: 'com.spotify.music/spotify-media-session/7',
      packageName: 'com.spotify.music',
      active: true,
      state: 'buffering',
      stateCode: 6,
      track: 'Song, Artist, Album',
    });
    expect(second).toMatchObject({ packageName: 'com.android.bluetooth', state: null, track: null, active: false });
  });

  it('reads a number alone (Android 11 and older)', () => {
    expect(parseMediaSessions(dump.replace('BUFFERING(6)', '2'))[0]).toMatchObject({ state: 'paused', stateCode: 2 });
  });
});

describe('notifications', () => {
  const record = (extras: string[]) =>
    [
      '    NotificationRecord(0x0a1b2c3d: pkg=com.whatsapp user=UserHandle{0} id=1 tag=null importance=4 ' +
        'key=0|com.whatsapp|1|null|10200: Notification(channel=msgs))',
      '      notification=',
      '            when=1700000000000',
      '            extras={',
      ...extras.map((e) => `                ${e}`),
      '            }',
      '      mCreationTimeMs=1700000000123',
    ].join('\n');

  it('keeps a styled, multi-line big text whole and prefers it to the short text', () => {
    const [n] = parseNotifications(
      record([
        'android.title=SpannableString (Ana)',
        'android.text=String (first line…)',
        // A value's line breaks are printed as they are: the next lines start at the margin.
        'android.bigText=SpannableString (first line\nsecond (line)\n)',
        'android.showWhen=Boolean (true)',
      ]),
    );
    expect(n).toMatchObject({
      packageName: 'com.whatsapp',
      title: 'Ana',
      text: 'first line\nsecond (line)\n',
      postTime: 1700000000123,
    });
  });

  it('gives no text where the dump was redacted', () => {
    expect(
      parseNotifications(record(['android.title=String [length=3]', 'android.text=String [length=9]']))[0],
    ).toMatchObject({
      title: null,
      text: null,
    });
  });
});

describe('location switched on or off', () => {
  it('reads the owner of several running users, the single-user line, and location_mode on old phones', () => {
    expect(
      locationEnabled('  Location Settings:\n    Location Setting: \n      [u0] false\n      [u10] true\n', '3'),
    ).toBe(false);
    expect(locationEnabled('    Location Setting: true\n', '0')).toBe(true);
    expect(locationEnabled('Current Location Manager state:\n', '0')).toBe(false);
    expect(locationEnabled('Current Location Manager state:\n', 'null')).toBeNull();
  });
});

describe('resolver tables', () => {
  it('collects an activity listed under several actions, in short and full form, and ignores other packages', () => {
    const dump = [
      'Activity Resolver Table:',
      '  Schemes:',
      '      https:',
      '        1a2b3c4 com.example.app/.DeepLinkActivity filter 5d6e7f8',
      '          Action: "android.intent.action.VIEW"',
      '          Category: "android.intent.category.BROWSABLE"',
      '  Non-Data Actions:',
      '      android.intent.action.MAIN:',
      '        9a8b7c6 com.example.app/com.example.app.ui.Main (2 filters)',
      '        0f0f0f0 com.other.app/.Main filter 1111111',
      '          Action: "android.intent.action.MAIN"',
      '',
      'Packages:',
      '  Package [com.example.app] (abc):',
    ].join('\n');
    expect(parseResolverActivities(dump, 'com.example.app')).toEqual([
      {
        name: 'com.example.app.DeepLinkActivity',
        actions: ['android.intent.action.VIEW'],
        categories: ['android.intent.category.BROWSABLE'],
      },
      { name: 'com.example.app.ui.Main', actions: [], categories: [] },
    ]);
  });
});

describe('displays', () => {
  it('takes the active internal viewport, and on Android 9 (no isActive) the valid one', () => {
    const modern = parseViewports(
      'mViewports=[DisplayViewport{type=INTERNAL, valid=true, isActive=false, displayId=1, ' +
        "uniqueId='local:4630947194243491972', physicalPort=131, orientation=0, logicalFrame=Rect(0, 0 - 904, 2316), " +
        'physicalFrame=Rect(0, 0 - 904, 2316), deviceWidth=904, deviceHeight=2316}, DisplayViewport{type=INTERNAL, ' +
        "valid=true, isActive=true, displayId=0, uniqueId='local:4630946165277524611', physicalPort=130, " +
        'orientation=0, logicalFrame=Rect(0, 0 - 1812, 2176), physicalFrame=Rect(0, 0 - 1812, 2176), ' +
        'deviceWidth=1812, deviceHeight=2176}, DisplayViewport{type=EXTERNAL, valid=true, isActive=true, ' +
        "displayId=2, uniqueId='local:4619827259835644930', physicalPort=2, orientation=0, logicalFrame=Rect(0, 0 - " +
        '1920, 1080), physicalFrame=Rect(0, 0 - 1920, 1080), deviceWidth=1920, deviceHeight=1080}]',
    );
    expect(defaultDisplay(modern)).toMatchObject({
      physicalId: '4630946165277524611',
      logicalId: 0,
      width: 1812,
      active: true,
    });
    const old = parseViewports(
      "mDefaultViewport=DisplayViewport{valid=true, displayId=0, uniqueId='local:0', orientation=0, " +
        'logicalFrame=Rect(0, 0 - 720, 1440), physicalFrame=Rect(0, ' +
        '0 - 720, 1440), deviceWidth=720, deviceHeight=1440}',
    );
    expect(defaultDisplay(old)).toMatchObject({ physicalId: '0', active: true, width: 720 });
  });

  it('lists SurfaceFlinger ids, virtual displays aside', () => {
    expect(
      parseSurfaceFlingerIds(
        'Display 4630946474867211650 (HWC display 0): port=130 pnpId=SAM displayName="samsung"\nDisplay ' +
          '11529215048785374281 (Virtual display): displayName="Overlay"\n',
      ),
    ).toEqual(['4630946474867211650']);
  });
});

describe('screen state and size', () => {
  it('reads the old lock-screen flag and a named alphabetic keyboard', () => {
    const state = parseScreenState(
      'S',
      'mWakefulness=Awake\n    mResumedActivity: ActivityRecord{1 u0 com.a/.Main t3}\n  mInputShown=false\n    ' +
        'mShowingLockscreen=true mShowingDream=false\n  Device 7: Keyboard K380\n    KeyboardType: ALPHABETIC\n',
      0,
    );
    expect(state).toMatchObject({ screenOn: true, foreground: 'com.a/.Main', locked: true, hardwareKeyboard: true });
  });

  // The input devices as the screen-state read's grep leaves them (`^ +Device -?[0-9]+: |^ +KeyboardType: `).
  // Every phone lists the system's virtual keyboard, Device -1, as alphabetic (AOSP EventHub's
  // createVirtualKeyboardLocked; source.android.com's "Dumpsys Input Diagnostics" sample): it is no
  // keyboard a person attached, so a phone with nothing plugged in has none.
  const devices = (...rest: string[]) =>
    ['  Device -1: Virtual', '    KeyboardType: 2', '  Device 2: gpio-keys', '    KeyboardType: 1', ...rest].join('\n');

  it('does not count the virtual keyboard every phone lists as a hardware keyboard', () => {
    expect(hardwareKeyboards(devices('  Device 5: sec_touchscreen', '    KeyboardType: 0'))).toBe(0);
    expect(parseScreenState('S', devices(), 0).hardwareKeyboard).toBe(false);
  });

  it('counts a keyboard a person attached, internal or external', () => {
    expect(hardwareKeyboards(devices('  Device 9: Keyboard K380', '    KeyboardType: 2'))).toBe(1);
    expect(parseScreenState('S', devices('  Device 9: Keyboard K380', '    KeyboardType: 2'), 0).hardwareKeyboard).toBe(
      true,
    );
  });

  it('leaves the keyboard unknown when the read listed no input device', () => {
    expect(hardwareKeyboards('mWakefulness=Awake\n')).toBeUndefined();
    expect(parseScreenState('S', 'mWakefulness=Awake\n', 0).hardwareKeyboard).toBeUndefined();
  });

  it('keeps the screen size a phone in landscape is tapped in, from the state read', () => {
    const telemetry = new DeviceTelemetry(new TelemetryStore(), {} as DeviceManager, new ManualClock(1000));
    // Android 12's state read: `wm size` is the natural (portrait) size, the viewport says it is turned.
    telemetry.record(
      'S',
      'mWakefulness=Awake\n  Device 3: sec_touchscreen\n    KeyboardType: 0\n    Viewport INTERNAL: displayId=0, ' +
        'uniqueId=local:4619827259835644672, port=129, orientation=1, logicalFrame=[0, 0, 2400, 1080], ' +
        'physicalFrame=[0, 0, 2400, 1080], deviceSize=[2400, 1080], isActive=[1]\nPhysical size: 1080x2400\n',
    );
    expect(telemetry.screenSize('S')).toEqual({ width: 2400, height: 1080 });
    // Android 9 says it per touch device.
    telemetry.record('S', '      SurfaceOrientation: 3\nPhysical size: 720x1440\n');
    expect(telemetry.screenSize('S')).toEqual({ width: 1440, height: 720 });
    telemetry.record('S', 'Physical size: 720x1440\n');
    expect(telemetry.screenSize('S')).toEqual({ width: 720, height: 1440 });
  });

  it('prefers the override size, and turns the display with a rotated dump', () => {
    expect(parseWmSize('Physical size: 1440x3088\nOverride size: 1080x2316\n')).toEqual({ width: 1080, height: 2316 });
    const xml =
      "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"1\"><node index=\"0\" " +
      'text="" resource-id="" class="android.widget.FrameLayout" package="p.q" content-desc="" checkable="false" ' +
      'checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" ' +
      'long-clickable="false" password="false" selected="false" bounds="[0,0][2400,1080]" /></hierarchy>';
    expect(parseUiDump('S', xml, 0, { width: 1080, height: 2400 }).screen).toEqual({ width: 2400, height: 1080 });
  });
});
