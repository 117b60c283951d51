/** What the package manager knows of an installed app (the phone's services list these too). */
export interface AppInfo {
  packageName: string;
  label: string;
  system: boolean;
  versionName: string;
  versionCode: number;
  /** Fully qualified activity class names; the first one is the launcher entry when `launchable`. */
  activities: string[];
  launchable: boolean;
}
