import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { rulesFileEditorSchema } from '../../../src/core/rules/ruleSchema';

const file = join(__dirname, '../../../media/rules.schema.json');
const generated = () => `${JSON.stringify(z.toJSONSchema(rulesFileEditorSchema, { io: 'input', unrepresentable: 'any' }), null, 2)}\n`;

describe('media/rules.schema.json (what VS Code checks .keel/rules.json against)', () => {
  it('is the zod schema Keel reads rules with', () => {
    if (process.env.KEEL_UPDATE_RULES_SCHEMA === '1') writeFileSync(file, generated());
    expect(readFileSync(file, 'utf8'), 'regenerate with KEEL_UPDATE_RULES_SCHEMA=1 npx vitest run test/unit/rules/rulesJsonSchema.test.ts').toBe(generated());
  });

  it('describes the documented example as valid and a misspelt event as not', () => {
    const example = {
      rules: [
        {
          id: 'sql-conventions',
          on: 'tool_result',
          if: 'event.tool == "edit"',
          actions: [{ type: 'reminder', text: 'x' }],
          throttle: { key: 'sql', ttlSeconds: 600 },
        },
      ],
      disable: ['builtin.run-tests'],
    };
    expect(rulesFileEditorSchema.safeParse(example).success).toBe(true);
    expect(rulesFileEditorSchema.safeParse({ rules: [{ ...example.rules[0], on: 'tool_results' }] }).success).toBe(false);
    const schema = JSON.parse(readFileSync(file, 'utf8')) as { properties: { rules: { items: { properties: { on: unknown } } } } };
    expect(JSON.stringify(schema.properties.rules.items.properties.on)).toContain('plan_ready');
  });
});
