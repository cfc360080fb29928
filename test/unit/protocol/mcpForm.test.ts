// A server's form is checked on the card before Accept: numbers as numbers, choices among the
// options, required fields filled in; an optional field left empty is left out (its default
// then applies at the server). The form opens with the defaults filled in.
import { describe, expect, it } from 'vitest';
import { initialDraft, readForm } from '../../../src/protocol/mcpForm';
import type { McpFormField } from '../../../src/protocol/mcpRequests';

const fields: McpFormField[] = [
  { name: 'city', label: 'City', kind: 'text', required: true },
  { name: 'nights', label: 'Nights', kind: 'integer', required: false, default: 2 },
  { name: 'budget', label: 'Budget', kind: 'number', required: false },
  { name: 'breakfast', label: 'Breakfast', kind: 'boolean', required: false, default: true },
  { name: 'room', label: 'Room', kind: 'choice', required: true, options: [{ value: 'single', label: 'Single' }, { value: 'double', label: 'Double' }] },
  { name: 'extras', label: 'Extras', kind: 'choices', required: false, options: [{ value: 'parking', label: 'Parking' }, { value: 'late', label: 'Late check-out' }], default: ['late'] },
];

describe('the form on an MCP request card', () => {
  it('opens with each default in its field', () => {
    expect(initialDraft(fields)).toEqual({ city: '', nights: '2', budget: '', breakfast: true, room: '', extras: ['late'] });
  });

  it('sends typed values, leaving out optional fields left empty', () => {
    const draft = { ...initialDraft(fields), city: 'Lisbon', nights: ' 3 ', room: 'double', extras: ['parking', 'late'] };
    expect(readForm(fields, draft)).toEqual({ content: { city: 'Lisbon', nights: 3, breakfast: true, room: 'double', extras: ['parking', 'late'] } });
    expect(readForm(fields, { ...draft, budget: '120.5', breakfast: false })).toEqual({
      content: { city: 'Lisbon', nights: 3, budget: 120.5, breakfast: false, room: 'double', extras: ['parking', 'late'] },
    });
  });

  it('says what is wrong with each field, and sends nothing', () => {
    const draft = { ...initialDraft(fields), nights: '2.5', budget: 'lots', room: 'suite', extras: ['spa'] };
    expect(readForm(fields, draft)).toEqual({ problems: { city: 'required', nights: 'integer', budget: 'number', room: 'choice', extras: 'choice' } });
    expect(readForm(fields, { ...initialDraft(fields), city: '   ', room: 'single' })).toEqual({ problems: { city: 'required' } });
  });

  it('a required multiple choice needs one pick', () => {
    const required: McpFormField[] = [{ ...fields[5]!, required: true, default: undefined }];
    expect(readForm(required, initialDraft(required))).toEqual({ problems: { extras: 'required' } });
  });

  it("holds text to the server's lengths and forms, and numbers to its range", () => {
    const bounded: McpFormField[] = [
      { name: 'code', label: 'Code', kind: 'text', required: true, min: 3, max: 5 },
      { name: 'mail', label: 'Mail', kind: 'text', required: false, format: 'email' },
      { name: 'site', label: 'Site', kind: 'text', required: false, format: 'uri' },
      { name: 'day', label: 'Day', kind: 'text', required: false, format: 'date' },
      { name: 'at', label: 'At', kind: 'text', required: false, format: 'date-time' },
      { name: 'guests', label: 'Guests', kind: 'integer', required: false, min: 1, max: 4 },
    ];
    const good = { code: 'abcd', mail: 'a@b.pt', site: 'https://x.example/p', day: '2026-02-28', at: '2026-02-28T09:30:00Z', guests: '4' };
    expect(readForm(bounded, good)).toEqual({ content: { ...good, guests: 4 } });
    expect(readForm(bounded, { code: 'ab', mail: 'a@b', site: 'x y', day: '28/02/2026', at: '2026-02-28 09:30', guests: '0' })).toEqual({
      problems: { code: 'tooShort', mail: 'format', site: 'format', day: 'format', at: 'format', guests: 'tooSmall' },
    });
    expect(readForm(bounded, { code: 'abcdef', guests: '5' })).toEqual({ problems: { code: 'tooLong', guests: 'tooLarge' } });
  });
});
