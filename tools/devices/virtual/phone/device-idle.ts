/**
 * Doze as `dumpsys deviceidle` answers it, after AOSP `DeviceIdleController.onShellCommand`
 * (frameworks/base apex/jobscheduler/service/java/com/android/server/DeviceIdleController.java):
 * `force-idle` prints "Now forced in to deep idle mode" and `get deep` then reads IDLE (seen on an
 * API 35 emulator); `step` moves the deep state one step and prints "Stepped to deep: STATE";
 * `unforce` prints "Light state: L, deep state: D"; `get light|deep|force` reads one value. The
 * plain dump is abridged to its state line ("  mState=IDLE mLightState=OVERRIDE", as an emulator
 * showed it) and the flags tools read.
 */

/** The deep states in the order `step` walks them (DeviceIdleController.stepIdleStateLocked). */
const DEEP_STEPS = ['ACTIVE', 'INACTIVE', 'IDLE_PENDING', 'SENSING', 'LOCATING', 'IDLE', 'IDLE_MAINTENANCE'] as const;
type DeepState = (typeof DEEP_STEPS)[number];

export class DeviceIdleState {
  private deep: DeepState = 'ACTIVE';
  private light: 'ACTIVE' | 'OVERRIDE' = 'ACTIVE';
  private forced = false;

  /** What `dumpsys deviceidle ARGS` prints. */
  command(args: readonly string[]): string {
    const [verb, what] = args;
    switch (verb) {
      case 'force-idle':
        this.forced = true;
        this.deep = 'IDLE';
        this.light = 'OVERRIDE';
        return 'Now forced in to deep idle mode\n';
      case 'step': {
        this.forced = true;
        const next = (DEEP_STEPS.indexOf(this.deep) + 1) % DEEP_STEPS.length;
        // After IDLE_MAINTENANCE the controller goes back to IDLE, not to ACTIVE.
        this.deep = this.deep === 'IDLE_MAINTENANCE' ? 'IDLE' : (DEEP_STEPS[next] as DeepState);
        return `Stepped to deep: ${this.deep}\n`;
      }
      case 'unforce':
        this.forced = false;
        this.deep = 'ACTIVE';
        this.light = 'ACTIVE';
        return `Light state: ${this.light}, deep state: ${this.deep}\n`;
      case 'get':
        if (what === 'deep') return `${this.deep}\n`;
        if (what === 'light') return `${this.light}\n`;
        if (what === 'force') return `${this.forced}\n`;
        return `Unknown get option: ${what ?? ''}\n`;
      default:
        return [
          `  mEnabled=true`,
          `  mForceIdle=${this.forced}`,
          `  mState=${this.deep} mLightState=${this.light}`,
          '',
        ].join('\n');
    }
  }
}
