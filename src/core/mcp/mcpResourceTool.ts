import * as z from 'zod';
import { errorMessage } from '../errors';
import type { AnyTool, ToolResult } from '../tools/tool';
import { defineTool, errorResult } from '../tools/tool';
import { oneLine } from '../tools/toolPresentation';
import type { ResultCaps } from './mcpResult';
import { convertToolResult } from './mcpResult';
import type { McpResourceInfo, McpResourceTemplateInfo } from './mcpTypes';

/** The model's name for the resource tool. */
export const mcpReadResourceName = 'mcp_read_resource';

/** Listed per server at most, so a server with thousands of resources does not flood the model. */
const maxListed = 200;

export interface McpResourceSource {
  /** Servers that are ready and offer resources. */
  servers(): string[];
  resources(server: string): McpResourceInfo[];
  templates(server: string): McpResourceTemplateInfo[];
  read(server: string, uri: string, signal: AbortSignal): Promise<unknown>;
  caps(): ResultCaps;
}

const inputSchema = z.object({
  server: z.string().min(1).describe('The MCP server that holds the resource.'),
  uri: z.string().min(1).optional().describe('The resource to read; leave it out to list what the server offers.'),
});
type Input = z.infer<typeof inputSchema>;

/**
 * Reads a resource of an MCP server (text as text, images as images, other binary content
 * described), or lists the server's resources and templates when no URI is given. Read-only.
 */
export function mcpResourceTool(source: McpResourceSource): AnyTool {
  return defineTool<Input>({
    name: mcpReadResourceName,
    description:
      'Read a resource of an MCP server by its URI (text, images; other binary content is described). ' +
      'Call it with only `server` to list the resources and URI templates that server offers; fill a template to read one of its resources.',
    category: 'read',
    inputSchema,
    present: (input) => ({
      title: input.uri ? `${input.server}: read resource` : `${input.server}: list resources`,
      summary: oneLine(input.uri ?? input.server),
      icon: 'file-symlink-file',
      details: { kind: 'keyValue', entries: [{ key: 'server', value: input.server }, ...(input.uri ? [{ key: 'uri', value: input.uri }] : [])] },
    }),
    async execute(input, ctx): Promise<ToolResult> {
      const servers = source.servers();
      if (!servers.includes(input.server)) {
        return errorResult(
          servers.length
            ? `No running MCP server "${input.server}" offers resources. Servers with resources: ${servers.join(', ')}.`
            : 'No running MCP server offers resources.',
        );
      }
      if (!input.uri) return { output: listing(source.resources(input.server), source.templates(input.server), input.server) };
      try {
        const raw = (await source.read(input.server, input.uri, ctx.signal)) as { contents?: unknown };
        const contents = Array.isArray(raw.contents) ? raw.contents : [];
        if (contents.length === 0) return { output: `Resource ${input.uri} of "${input.server}" is empty.` };
        return convertToolResult({ content: contents.map((resource: unknown) => ({ type: 'resource', resource })) }, source.caps());
      } catch (err) {
        if (ctx.signal.aborted) return errorResult(`Reading ${input.uri} from "${input.server}" was cancelled.`);
        return errorResult(`Reading ${input.uri} from MCP server "${input.server}" failed: ${errorMessage(err)}`);
      }
    },
  });
}

function listing(resources: McpResourceInfo[], templates: McpResourceTemplateInfo[], server: string): string {
  if (resources.length === 0 && templates.length === 0) return `MCP server "${server}" lists no resources.`;
  const lines: string[] = [];
  const about = (r: { name: string; description?: string; mimeType?: string }) =>
    `${r.name}${r.mimeType ? ` (${r.mimeType})` : ''}${r.description ? ` — ${oneLine(r.description, 160)}` : ''}`;
  if (resources.length) {
    lines.push(`Resources of "${server}" (${resources.length}):`);
    for (const r of resources.slice(0, maxListed)) lines.push(`- ${r.uri}  ${about(r)}`);
    if (resources.length > maxListed) lines.push(`… and ${resources.length - maxListed} more not listed.`);
  }
  if (templates.length) {
    lines.push(`URI templates of "${server}" (${templates.length}):`);
    for (const t of templates.slice(0, maxListed)) lines.push(`- ${t.uriTemplate}  ${about(t)}`);
    if (templates.length > maxListed) lines.push(`… and ${templates.length - maxListed} more not listed.`);
  }
  return lines.join('\n');
}

/** A read resource as text (an @-mention's body): images and other binary content are named, not shown. */
export function resourceText(raw: unknown, caps: ResultCaps): string {
  const contents = Array.isArray((raw as { contents?: unknown })?.contents) ? (raw as { contents: unknown[] }).contents : [];
  if (contents.length === 0) return '(the resource is empty)';
  const { output } = convertToolResult({ content: contents.map((resource) => ({ type: 'resource', resource })) }, caps);
  if (typeof output === 'string') return output;
  return output.map((p) => (p.type === 'text' ? p.text : `[${p.mediaType} image: read it with ${mcpReadResourceName} to see it]`)).join('\n');
}
