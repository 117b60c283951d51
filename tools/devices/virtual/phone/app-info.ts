/** What the package manager knows of an installed app (the phone's services list these too). */

/** An intent filter of an activity, as `dumpsys package` prints it in the resolver tables. */
export interface IntentFilterInfo {
  /** Fully qualified activity class. */
  activity: string;
  actions: string[];
  categories: string[];
}

export interface AppInfo {
  packageName: string;
  label: string;
  system: boolean;
  versionName: string;
  versionCode: number;
  /** targetSdkVersion of the APK (Android 14+ refuses installs below a minimum). */
  targetSdk?: number;
  /** Fully qualified activity class names; the first one is the launcher entry when `launchable`. */
  activities: string[];
  launchable: boolean;
  /** Filters besides the MAIN/LAUNCHER one a launchable app's first activity gets. */
  filters?: IntentFilterInfo[];
  /** Activities whose window has FLAG_SECURE: screenshots of them come out black. */
  secureActivities?: string[];
}

/** Every intent filter of the app: the launcher entry, then the declared ones. */
export function intentFilters(info: AppInfo): IntentFilterInfo[] {
  const launcher =
    info.launchable && info.activities[0]
      ? [
          {
            activity: info.activities[0],
            actions: ['android.intent.action.MAIN'],
            categories: ['android.intent.category.LAUNCHER'],
          },
        ]
      : [];
  return [...launcher, ...(info.filters ?? [])];
}
