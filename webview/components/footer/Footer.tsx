import { ApprovalModePicker } from './ApprovalModePicker';
import { ContextMeter } from './ContextMeter';
import { ConversationTotal } from './ConversationTotal';
import { ModelPicker } from './ModelPicker';
import { ProjectPicker } from './ProjectPicker';

export function Footer() {
  return (
    <footer className="footer">
      <ProjectPicker />
      <ModelPicker />
      <ApprovalModePicker />
      <ContextMeter />
      <ConversationTotal />
    </footer>
  );
}
