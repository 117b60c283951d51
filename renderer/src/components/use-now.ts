/**
 * The current time, re-rendered every `intervalMs` while the component is mounted: countdowns and
 * "time left" displays tick locally; nothing is asked of the host.
 */
import { useEffect, useState } from 'react';

export function useNow(intervalMs = 1_000, enabled = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!enabled) return;
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs, enabled]);
  return now;
}
