/** Overview: is the host healthy, how an agent connects, what is attached, what is failing. */
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useInfo } from '../../state/queries';
import { ActivityCard } from './ActivityCard';
import { ClientConfigs } from './ClientConfigs';
import { ClientTokensCard } from './ClientTokensCard';
import { EndpointCard } from './EndpointCard';
import { EnvironmentCard } from './EnvironmentCard';
import { HealthCard } from './HealthCard';

export function OverviewPage(): React.JSX.Element {
  const info = useInfo();
  return (
    <>
      <PageHeader title="Overview" description="Host health, how agents connect, and what is happening now." />
      <QueryState query={info} what="host information">
        {(data) => (
          <div className="overview-grid">
            <HealthCard info={data} />
            <EndpointCard info={data} />
            <EnvironmentCard info={data} />
            <ActivityCard />
            <ClientConfigs info={data} />
            <ClientTokensCard />
          </div>
        )}
      </QueryState>
    </>
  );
}
