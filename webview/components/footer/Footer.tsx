import { ApprovalModePicker } from './ApprovalModePicker';
import { ContextMeter } from './ContextMeter';
import { ModelPicker } from './ModelPicker';

export function Footer() {
  return (
    <footer className="footer">
      <ModelPicker />
      <ApprovalModePicker />
      <ContextMeter />
    </footer>
  );
}
