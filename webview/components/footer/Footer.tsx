import { AgentPicker } from './AgentPicker';
import { ApprovalModePicker } from './ApprovalModePicker';
import { ContextMeter } from './ContextMeter';
import { ConversationTotal } from './ConversationTotal';
import { ModelPicker } from './ModelPicker';
import { ProjectPicker } from './ProjectPicker';
import { ReasoningPicker } from './ReasoningPicker';

export function Footer() {
  return (
    <footer className="footer">
      <ProjectPicker />
      <AgentPicker />
      <ModelPicker />
      <ReasoningPicker />
      <ApprovalModePicker />
      <ContextMeter />
      <ConversationTotal />
    </footer>
  );
}
