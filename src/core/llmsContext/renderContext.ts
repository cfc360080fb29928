import type { ContextSection, GatheredContext } from './contextTypes';

const tags: Record<string, string> = {
  environment: 'environment',
  git: 'git',
  structure: 'directory_structure',
  rules: 'rules_in_effect',
  readme: 'readme',
  editor: 'editor',
};

function tagOf(section: ContextSection): string {
  return tags[section.id] ?? 'plugin_context';
}

/** The gathered context as the system prompt carries it: one tagged block per section. */
export function renderContext(ctx: GatheredContext): string {
  const blocks = ctx.sections
    .filter((s) => s.text.trim() !== '')
    .map((s) => {
      const tag = tagOf(s);
      const attr = tag === 'plugin_context' ? ` title="${s.title.replace(/"/g, "'")}"` : '';
      return `<${tag}${attr}>\n${s.text}\n</${tag}>`;
    });
  return ['What Keel gathered about the workspace at the start of this request (it may have changed since; look again when it matters):', ...blocks].join('\n');
}
