import { ApprovalModePicker } from './ApprovalModePicker';
import { ContextMeter } from './ContextMeter';
import { ModelPicker } from './ModelPicker';
import { ProjectPicker } from './ProjectPicker';

export function Footer() {
  return (
    <footer className="footer">
      <ProjectPicker />
      <ModelPicker />
      <ApprovalModePicker />
      <ContextMeter />
    </footer>
  );
}
