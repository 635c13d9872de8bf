import { describe, expect, it } from 'vitest';
import { toFormSchema } from './formSchema';

describe('toFormSchema', () => {
  it('draws multi-select enums as checkbox groups (plain and titled)', () => {
    const { schema, uiSchema } = toFormSchema({
      type: 'object',
      properties: {
        plain: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
        titled: { type: 'array', items: { anyOf: [{ const: 'f1', title: 'Tuna' }, { const: 'f2', title: 'Salmon' }] } },
      },
    });
    expect((schema.properties as any).plain.uniqueItems).toBe(true);
    expect((schema.properties as any).titled.uniqueItems).toBe(true);
    expect(uiSchema.plain['ui:widget']).toBe('checkboxes');
    expect(uiSchema.titled['ui:widget']).toBe('checkboxes');
  });

  it('turns legacy enumNames into option labels and nullable types into their real type', () => {
    const { schema, uiSchema } = toFormSchema({
      type: 'object',
      properties: {
        pet: { type: 'string', enum: ['p1', 'p2'], enumNames: ['Cats', 'Dogs'] },
        note: { type: ['string', 'null'] },
      },
    });
    expect((schema.properties as any).pet.enumNames).toBeUndefined();
    expect(uiSchema.pet['ui:enumNames']).toEqual(['Cats', 'Dogs']);
    expect((schema.properties as any).note.type).toBe('string');
  });

  it('hides the generated labels of array items, nested too', () => {
    const { uiSchema } = toFormSchema({
      type: 'object',
      properties: { rows: { type: 'array', items: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } } } },
    });
    expect(uiSchema.rows.items['ui:label']).toBe(false);
    expect(uiSchema.rows.items.tags.items['ui:label']).toBe(false);
  });

  it('leaves the input schema untouched', () => {
    const input = { type: 'object', properties: { x: { type: 'array', items: { enum: ['a'] } } } };
    const copy = JSON.parse(JSON.stringify(input));
    toFormSchema(input);
    expect(input).toEqual(copy);
  });
});
