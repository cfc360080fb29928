import * as l10n from '@vscode/l10n';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Select } from '../../ui/Select';

/** The current project of a multi-root workspace; hidden when there is only one folder. */
export function ProjectPicker() {
  const bridge = useBridge();
  const projects = useMeta((meta) => meta.workspaceProjects);
  const running = useMeta((meta) => meta.run.running);
  if (!projects || projects.projects.length < 2) return null;
  const options = projects.projects.map((p) => ({ value: p.name, label: p.branch ? `${p.name} (${p.branch})` : p.name }));
  return (
    <Select
      value={projects.current}
      options={options}
      label={l10n.t('Current project: relative paths start here')}
      testId="project-picker"
      disabled={running}
      onChange={(name) => {
        if (name !== projects.current) void bridge.selectWorkspaceProject(name);
      }}
    />
  );
}
