import type { ContextSection } from './contextTypes';

const tags: Record<string, string> = {
  environment: 'environment',
  git: 'git',
  structure: 'directory_structure',
  rules: 'rules_in_effect',
  skills: 'skills',
  readme: 'readme',
  editor: 'editor',
};

function tagOf(id: string): string {
  return tags[id] ?? 'plugin_context';
}

/** Each section as one tagged block. */
export function renderSections(sections: readonly Pick<ContextSection, 'id' | 'title' | 'text'>[]): string[] {
  return sections
    .filter((s) => s.text.trim() !== '')
    .map((s) => {
      const tag = tagOf(s.id);
      const attr = tag === 'plugin_context' ? ` title="${s.title.replace(/"/g, "'")}"` : '';
      return `<${tag}${attr}>\n${s.text}\n</${tag}>`;
    });
}
