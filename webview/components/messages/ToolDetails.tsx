import type { ToolDetailsDisplay } from '../../../src/protocol/toolDisplay';
import { CommandDetails } from './CommandDetails';
import { FetchedPageDetails } from './FetchedPageDetails';
import { FileDetails } from './FileDetails';
import { KeyValueDetails } from './KeyValueDetails';
import { SearchDetails } from './SearchDetails';
import { TodoListDetails } from './TodoListDetails';

/** A tool call's details, drawn by the renderer its kind names. */
export function ToolDetails({ details }: { details: ToolDetailsDisplay }) {
  switch (details.kind) {
    case 'fileChange':
      return <FileDetails details={details} />;
    case 'command':
      return <CommandDetails details={details} />;
    case 'search':
      return <SearchDetails details={details} />;
    case 'fetchedPage':
      return <FetchedPageDetails details={details} />;
    case 'todoList':
      return <TodoListDetails details={details} />;
    case 'keyValue':
      return <KeyValueDetails details={details} />;
  }
}

