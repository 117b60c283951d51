/**
 * Copies a value to the clipboard and says so. The Clipboard API needs a secure context
 * (127.0.0.1 and file:// are); if it is refused, the text is copied through a hidden selection.
 */
import { useEffect, useState } from 'react';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    // execCommand is deprecated but is the only fallback when the Clipboard API is refused.
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

export function CopyButton(props: { text: string; label: string; className?: string }): React.JSX.Element {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const id = setTimeout(() => setState('idle'), 2_000);
    return () => clearTimeout(id);
  }, [state]);
  return (
    <button
      type="button"
      className={props.className ?? 'secondary'}
      aria-label={props.label}
      onClick={() => void copyText(props.text).then((ok) => setState(ok ? 'copied' : 'failed'))}
    >
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}</span>
    </button>
  );
}
