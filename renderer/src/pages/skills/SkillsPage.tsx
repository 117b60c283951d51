/**
 * Skills: the installed Agent Skills, each with the tools it brings, a switch, its SKILL.md and a
 * Remove button, and a form to install one from the workspace or an https URL. Installing and
 * removing are the tool calls skill_install and skill_uninstall: they wait for approval like an
 * agent's, and the waiting card is shown right here so the person can answer it.
 */
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useSkills } from '../../state/queries';
import { InstallSkillForm } from './InstallSkillForm';
import { SkillApprovals } from './SkillApprovals';
import { SkillCard } from './SkillCard';
import '../../styles/skills.css';

export function SkillsPage(): React.JSX.Element {
  const skills = useSkills();
  return (
    <>
      <PageHeader
        title="Skills"
        description={
          'Agent Skills: instructions (SKILL.md) agents load as MCP prompts and resources, and the tools ' +
          'they bring. Installing or removing one asks for your approval.'
        }
      />
      <InstallSkillForm />
      <SkillApprovals />
      <h2 className="section-title">Installed</h2>
      <QueryState
        query={skills}
        what="skills"
        isEmpty={(l) => l.length === 0}
        empty={
          <EmptyState title="No skills installed.">
            Install one above from a workspace folder or archive, or have an agent call skill_create.
          </EmptyState>
        }
      >
        {(list) => (
          <div className="cards cards-wide">
            {list.map((s) => (
              <SkillCard key={s.name} skill={s} />
            ))}
          </div>
        )}
      </QueryState>
    </>
  );
}
