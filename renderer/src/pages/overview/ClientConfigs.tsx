/** Copyable client configurations, one at a time, picked with a row of toggle buttons. */
import { useState } from 'react';
import type { HostInfo } from '../../../../shared/contract';
import { CopyButton } from '../../components/CopyButton';
import { clientConfigs, maskToken } from './client-configs';

export function ClientConfigs(props: { info: HostInfo; revealed: boolean }): React.JSX.Element {
  const { info } = props;
  const real = clientConfigs(info, info.token);
  const shown = clientConfigs(info, props.revealed ? info.token : maskToken(info.token));
  const [selected, setSelected] = useState(real[0]?.id ?? '');
  const index = Math.max(
    0,
    real.findIndex((c) => c.id === selected),
  );
  const config = shown[index];
  const copyText = real[index]?.text ?? '';
  return (
    <section className="card span-all" aria-labelledby="configs-title">
      <h2 id="configs-title">Connect an MCP client</h2>
      <div className="segmented" role="group" aria-label="Client">
        {real.map((c) => (
          <button key={c.id} type="button" aria-pressed={c.id === real[index]?.id} onClick={() => setSelected(c.id)}>
            {c.label}
          </button>
        ))}
      </div>
      {config ? (
        <>
          <p className="muted small">{config.where}</p>
          <div className="code-with-copy">
            <pre
              className="json-block"
              tabIndex={0}
              aria-label={`${config.label} configuration`}
              data-testid="client-config"
            >
              {config.text}
            </pre>
            <CopyButton text={copyText} label={`Copy ${config.label} configuration`} />
          </div>
        </>
      ) : null}
    </section>
  );
}
