const DESCRIPTION =
  'Smoke-tests an installed Android app on a connected phone - launches it, waits for its first screen, ' +
  'reads the UI tree and takes a screenshot - and says what to look for. Use it after installing or ' +
  'updating an app, or when asked whether an app starts.';

/** A skill shipped with Toolgate: smoke-testing an Android app over the device tools. */
export const ANDROID_APP_SMOKE_TEST = `---
name: android-app-smoke-test
description: ${DESCRIPTION}
license: MIT
metadata:
  author: Toolgate
  version: "1.0"
tools:
  - name: launch_and_inspect
    description: Launches an installed app and returns the UI tree and a screenshot of its first screen.
    params:
      - name: packageName
        type: string
        description: e.g. com.android.settings; app_list names the installed ones.
      - name: serial
        type: string
        description: Omit when one device is attached.
        required: false
      - name: settleSeconds
        type: number
        description: Seconds to wait after launching.
        default: 2
    steps:
      - tool: app_launch
        args: { packageName: "{packageName}", serial: "{serial}" }
      - tool: wait
        args: { seconds: "{settleSeconds}", reason: waiting for the first screen }
      - tool: ui_dump
        args: { serial: "{serial}" }
      - tool: screenshot
        args: { serial: "{serial}" }
---

# Android app smoke test

A smoke test answers one question: does the app start and show a usable first screen?

1. Find the package: \`app_list\` with a filter (e.g. \`{"filter": "maps"}\`) if you only know the app's name.
2. Run \`skill_android-app-smoke-test_launch_and_inspect\` with \`packageName\`. It launches the app, waits
   \`settleSeconds\`, reads the UI tree and takes a screenshot.
3. Judge the result:
   - **Pass**: the UI tree lists elements of the app itself (its package in \`id=\` values) and the
     screenshot shows its first screen.
   - **Crash**: the tree shows the launcher or an "App keeps stopping" dialog. Read \`logcat\` with
     \`{"filter": "AndroidRuntime", "lines": 200}\` and report the first \`FATAL EXCEPTION\`.
   - **Hang**: a blank or loading screen. Run the tool again with \`settleSeconds: 8\` once; if it
     is still blank, report a hang.
4. Report in one line per check: started (yes/no), first screen (what it shows), errors (from logcat).

Do not tap or type during a smoke test: it must leave the app as the user had it.
`;
