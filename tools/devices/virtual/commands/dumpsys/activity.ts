/**
 * `dumpsys activity activities` and `dumpsys window`, in the layout of the profile's Android:
 * Android 12+ prints the resumed activity as a task's `topResumedActivity=` and the display's
 * `ResumedActivity:`; Android 8–9 as the stack's `mResumedActivity:` (FORMATS.md). While the
 * keyguard shows, no activity is resumed and the focused window is System UI's.
 */
import type { VirtualPhone } from '../../phone';
import { activityRecord, hexId, windowName } from './ids';

export function activities(phone: VirtualPhone): string {
  const fg = phone.foreground();
  const record = activityRecord(phone);
  const resumed = !phone.conditions.locked;
  const uid = phone.getPackage(fg.packageName)?.uid ?? 1000;
  const taskId = uid % 1000;
  if (phone.profile.android.resumedLine === 'm') {
    return [
      'ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)',
      'Display #0 (activities from top to bottom):',
      '',
      `  Stack #${taskId}: type=standard mode=fullscreen`,
      '  isSleeping=false',
      '  mBounds=Rect(0, 0 - 0, 0)',
      `    Task id #${taskId}`,
      `    * TaskRecord{${hexId(fg.packageName)} #${taskId} A=${fg.packageName} U=0 StackId=${taskId} sz=1}`,
      `      * Hist #0: ${record}`,
      '',
      '    Running activities (most recent first):',
      `      TaskRecord{${hexId(fg.packageName)} #${taskId} A=${fg.packageName} U=0 StackId=${taskId} sz=1}`,
      `        Run #0: ${record}`,
      '',
      ...(resumed ? [`    mResumedActivity: ${record}`] : []),
      '',
      ` mFocusedStack=ActivityStack{${hexId(`s${fg.packageName}`)} stackId=${taskId} type=standard mode=fullscreen ` +
        'visible=true translucent=false, 1 tasks}',
      ' mSleepTimeout=false',
      '',
    ].join('\n');
  }
  return [
    'ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)',
    'Display #0 (activities from top to bottom):',
    `  * Task{${hexId(fg.packageName)} #${taskId} type=standard A=${uid}:${fg.packageName} U=0 visible=true ` +
      'visibleRequested=true mode=fullscreen translucent=false sz=1}',
    '    isSleeping=false',
    ...(resumed ? [`    topResumedActivity=${record}`] : []),
    `    * Hist  #0: ${record}`,
    '',
    '  Resumed activities in task display areas (from top to bottom):',
    ...(resumed ? [`    Resumed: ${record}`] : []),
    '',
    ...(resumed ? [`  ResumedActivity: ${record}`] : []),
    '',
  ].join('\n');
}

/** The keyguard as the window policy dumps it (KeyguardServiceDelegate and its KeyguardStateMonitor). */
function keyguard(phone: VirtualPhone): string[] {
  const { locked, lockSecure } = phone.conditions;
  return [
    '    KeyguardServiceDelegate',
    `      showing=${locked}`,
    `      inputRestricted=${locked}`,
    '      occluded=false',
    `      secure=${lockSecure}`,
    '      dreaming=false',
    '      systemIsReady=true',
    '      deviceHasKeyguard=true',
    '      enabled=true',
    `      screenState=${phone.awake ? 'SCREEN_STATE_ON' : 'SCREEN_STATE_OFF'}`,
    '      KeyguardStateMonitor',
    `        mIsShowing=${locked}`,
    '        mSimSecure=false',
    `        mInputRestricted=${locked}`,
    '        mTrusted=false',
    '        mCurrentUserId=0',
  ];
}

export function windowDump(phone: VirtualPhone, args: string[]): string {
  const { width, height, density } = phone.screen;
  const legacy = phone.profile.android.dumps === 'legacy';
  const record = activityRecord(phone);
  const focusedApp = legacy
    ? `AppWindowToken{${hexId(`t${record}`)} token=Token{${hexId(`k${record}`)} ${record}}}`
    : record;
  const policy = [
    'WINDOW MANAGER POLICY STATE (dumpsys window policy)',
    '    mSafeMode=false mSystemReady=true mSystemBooted=true',
    `    mLidState=LID_ABSENT mLidOpenRotation=-1 mCameraLensCoverState=LENS_COVER_ABSENT mHDMIPlugged=false`,
    `    mShortPressOnPowerBehavior=1 mLongPressOnPowerBehavior=${legacy ? 1 : 5}`,
    ...keyguard(phone),
  ];
  const uid = phone.getPackage(phone.focusedPackage())?.uid ?? 10050;
  // WindowManager.LayoutParams flags in bit order; FLAG_SECURE (0x2000) sits after LAYOUT_IN_SCREEN.
  const flags =
    `LAYOUT_IN_SCREEN ${phone.secureWindowShown() ? 'SECURE ' : ''}LAYOUT_INSET_DECOR SPLIT_TOUCH ` +
    'HARDWARE_ACCELERATED DRAWS_SYSTEM_BAR_BACKGROUNDS';
  const windows = [
    'WINDOW MANAGER WINDOWS (dumpsys window windows)',
    `  Window #0 ${windowName(phone)}:`,
    `    mDisplayId=0 rootTaskId=1 mSession=Session{1b2c3d4 12345:u0a${uid % 100000}} ` +
      'mClient=android.os.BinderProxy@5e6f7a8',
    `    mOwnerUid=${uid} showForAllUsers=false package=${phone.focusedPackage()} appop=NONE`,
    '    mAttrs={(0,0)(fillxfill) sim={adjust=resize} ty=BASE_APPLICATION wanim=0x10302fe',
    `      fl=${flags}`,
    '      pfl=NO_MOVE_ANIMATION FORCE_DRAW_STATUS_BAR_BACKGROUND FIT_INSETS_CONTROLLED',
    '',
    `  mCurrentFocus=${windowName(phone)}`,
    `  mFocusedApp=${focusedApp}`,
    `  mInputMethodWindow=${phone.keyboardShown ? `Window{${hexId('ime')} u0 InputMethod}` : 'null'}`,
  ];
  const displays = [
    'WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)',
    `  Display: mDisplayId=0`,
    `    init=${width}x${height} ${density}dpi cur=${width}x${height} app=${width}x${phone.layout.contentHeight}`,
    `    mCurrentFocus=${windowName(phone)}`,
    `    mFocusedApp=${focusedApp}`,
  ];
  const section = args.find((a) => !a.startsWith('-'));
  if (section === 'policy') return `${policy.join('\n')}\n`;
  if (section === 'windows') return `${windows.join('\n')}\n`;
  if (section === 'displays') return `${displays.join('\n')}\n`;
  return `${[...policy, '', ...displays, '', ...windows].join('\n')}\n`;
}
