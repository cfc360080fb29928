import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { mcpAppUri, toolVisibility } from './mcpAppMeta';
import { mcpPromptCommand } from './mcpNames';
import type { McpPromptInfo, McpResourceInfo, McpResourceTemplateInfo, McpToolInfo } from './mcpTypes';

/** Pages read of one list at most: a server that keeps handing out cursors must not hold the start forever. */
const maxPages = 100;

/** Every page of a paginated list, following `nextCursor`. */
async function allPages<T>(list: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const got = await list(cursor);
    out.push(...got.items);
    cursor = got.nextCursor;
    if (!cursor) break;
  }
  return out;
}

/** What a server offers (its tools, prompts and resources), each list read to its end. */
export interface McpOfferings {
  tools: McpToolInfo[];
  prompts: McpPromptInfo[];
  resources: McpResourceInfo[];
  templates: McpResourceTemplateInfo[];
}

export async function listOfferings(client: Client, server: string): Promise<McpOfferings> {
  const caps = client.getServerCapabilities() ?? {};
  const tools = caps.tools
    ? (await allPages(async (cursor) => {
        const page = await client.listTools(cursor ? { cursor } : undefined);
        return { items: page.tools, nextCursor: page.nextCursor };
      })).map((t) => {
        const info: McpToolInfo = { name: t.name, inputSchema: t.inputSchema as Record<string, unknown>, readOnly: t.annotations?.readOnlyHint === true };
        if (t.title ?? t.annotations?.title) info.title = t.title ?? t.annotations?.title;
        if (t.description) info.description = t.description;
        const appUri = mcpAppUri(t._meta);
        if (appUri) info.appUri = appUri;
        const visibility = toolVisibility(t._meta);
        if (visibility) info.visibility = visibility;
        return info;
      })
    : [];
  const prompts = caps.prompts
    ? (await allPages(async (cursor) => {
        const page = await client.listPrompts(cursor ? { cursor } : undefined);
        return { items: page.prompts, nextCursor: page.nextCursor };
      })).map((p) => {
        const info: McpPromptInfo = {
          server,
          name: p.name,
          arguments: (p.arguments ?? []).map((a) => ({ name: a.name, required: a.required === true, ...(a.description ? { description: a.description } : {}) })),
          command: mcpPromptCommand(server, p.name),
        };
        if (p.description) info.description = p.description;
        return info;
      })
    : [];
  const resources = caps.resources
    ? (await allPages(async (cursor) => {
        const page = await client.listResources(cursor ? { cursor } : undefined);
        return { items: page.resources, nextCursor: page.nextCursor };
      })).map((r) => {
        const info: McpResourceInfo = { server, uri: r.uri, name: r.name };
        if (r.description) info.description = r.description;
        if (r.mimeType) info.mimeType = r.mimeType;
        return info;
      })
    : [];
  const templates = caps.resources
    ? (await optionalList(() => allPages(async (cursor) => {
        const page = await client.listResourceTemplates(cursor ? { cursor } : undefined);
        return { items: page.resourceTemplates, nextCursor: page.nextCursor };
      }))).map((t) => {
        const info: McpResourceTemplateInfo = { server, uriTemplate: t.uriTemplate, name: t.name };
        if (t.description) info.description = t.description;
        if (t.mimeType) info.mimeType = t.mimeType;
        return info;
      })
    : [];
  return { tools, prompts, resources, templates };
}

/** Templates are optional for a server with resources: one that does not know the method has none. */
async function optionalList<T>(list: () => Promise<T[]>): Promise<T[]> {
  try {
    return await list();
  } catch (err) {
    if (err instanceof McpError && err.code === ErrorCode.MethodNotFound) return [];
    throw err;
  }
}
