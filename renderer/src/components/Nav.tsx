/**
 * The left navigation. Pending approvals and open breakers show as counts next to their pages, so
 * a person sees from anywhere that something waits for them.
 */
import { hrefFor } from '../router/hash-route';
import { PAGES, type PageId } from '../router/pages';
import { useBreakers, usePendingApprovals } from '../state/queries';

function useCounts(): Partial<Record<PageId, { n: number; label: string }>> {
  const pending = usePendingApprovals();
  const breakers = useBreakers();
  const open = breakers.data?.filter((b) => b.state !== 'CLOSED').length ?? 0;
  return {
    approvals: { n: pending.data?.length ?? 0, label: 'pending' },
    breakers: { n: open, label: 'not closed' },
  };
}

export function Nav(props: { current: PageId }): React.JSX.Element {
  const counts = useCounts();
  return (
    <nav className="nav" aria-label="Pages">
      <ul>
        {PAGES.map((p) => {
          const count = counts[p.id];
          return (
            <li key={p.id}>
              <a href={hrefFor(p.id)} aria-current={p.id === props.current ? 'page' : undefined}>
                <span>{p.label}</span>
                {count && count.n > 0 ? (
                  <span className="nav-count" aria-label={`${count.n} ${count.label}`}>
                    {count.n}
                  </span>
                ) : null}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
