import { useBridge } from '../../bridge/bridgeContext';
import type { ToolDetailsOf } from '../../../src/protocol/toolDisplay';

/** The page a call fetched; a click asks the host to open it (it confirms first), as every link on the page does. */
export function FetchedPageDetails({ details }: { details: ToolDetailsOf<'fetchedPage'> }) {
  const bridge = useBridge();
  return (
    <div className="tool-details tool-details-page" data-testid="tool-details" data-kind="fetchedPage">
      <button type="button" className="tool-details-link" title={details.url} onClick={() => void bridge.openLink(details.url)}>
        {details.url}
      </button>
    </div>
  );
}
