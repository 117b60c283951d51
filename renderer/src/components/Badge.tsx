/** A small coloured label. The tone picks the colour; the text always says the same thing. */
export type BadgeTone = 'neutral' | 'good' | 'warn' | 'bad' | 'info';

export function Badge(props: { tone?: BadgeTone; children: React.ReactNode; title?: string }): React.JSX.Element {
  return (
    <span className={`badge badge-${props.tone ?? 'neutral'}`} title={props.title}>
      {props.children}
    </span>
  );
}
