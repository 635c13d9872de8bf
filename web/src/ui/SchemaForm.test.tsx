import { createRef } from 'react';
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { SchemaForm, type SchemaFormHandle } from './SchemaForm';

// server-everything's elicitation showcase (trigger-elicitation-request), abridged.
const showcase = {
  type: 'object',
  properties: {
    name: { title: 'String', type: 'string' },
    email: { title: 'Email', type: 'string', format: 'email' },
    birthdate: { title: 'Birthdate', type: 'string', format: 'date' },
    untitledMultipleSelectEnum: { type: 'array', title: 'Untitled Multiple Select Enum', minItems: 1, maxItems: 3, items: { type: 'string', enum: ['Guitar', 'Piano', 'Violin'] }, default: ['Guitar'] },
    titledSingleSelectEnum: { type: 'string', title: 'Titled Single Select Enum', oneOf: [{ const: 'hero-1', title: 'Superman' }, { const: 'hero-2', title: 'Green Lantern' }], default: 'hero-1' },
    titledMultipleSelectEnum: { type: 'array', title: 'Titled Multiple Select Enum', minItems: 1, items: { anyOf: [{ const: 'fish-1', title: 'Tuna' }, { const: 'fish-2', title: 'Salmon' }, { const: 'fish-3', title: 'Trout' }] }, default: ['fish-1'] },
    legacyTitledEnum: { type: 'string', title: 'Legacy', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'], default: 'pet-1' },
  },
  required: ['name'],
};

describe('SchemaForm', () => {
  it('draws the elicitation showcase with checkbox groups and titles, no unsupported-field dump', () => {
    const { container } = render(<SchemaForm schema={showcase} allowRaw={false} />);
    expect(container.textContent).not.toMatch(/Unsupported field schema/i);
    expect(container.textContent).not.toMatch(/Enum-1/);
    expect(screen.getByLabelText('Tuna')).toBeTruthy();
    expect((screen.getByLabelText('Salmon') as HTMLInputElement).type).toBe('checkbox');
    expect((screen.getByLabelText('Piano') as HTMLInputElement).type).toBe('checkbox');
    // Options by their text: getByRole walks the whole accessibility tree per query, which made
    // this first render's test the slowest in the suite (past vitest's 5 s under load).
    const options = [...container.querySelectorAll('option')].map((o) => o.textContent);
    expect(options).toContain('Green Lantern');
    expect(options).toContain('Dogs');
    expect((container.querySelector('#root_email') as HTMLInputElement).type).toBe('email');
    expect((container.querySelector('#root_birthdate') as HTMLInputElement).type).toBe('date');
    // The file's first render pays for rjsf's and ajv's start-up (~0.4 s alone): 15 s, not
    // vitest's 5 s, so a loaded CI machine (it hit 5 s at load 16) does not fail it.
  }, 15000);

  it('returns what was picked, with defaults, and refuses a missing required field', () => {
    const ref = createRef<SchemaFormHandle>();
    const { container } = render(<SchemaForm ref={ref} schema={showcase} allowRaw={false} />);
    expect(ref.current!.submit()).toBeNull();
    fireEvent.change(container.querySelector('#root_name')!, { target: { value: 'Ada' } });
    fireEvent.click(screen.getByLabelText('Salmon'));
    fireEvent.click(screen.getByLabelText('Piano'));
    const value = ref.current!.submit();
    expect(value).toMatchObject({ name: 'Ada', titledMultipleSelectEnum: ['fish-1', 'fish-2'], untitledMultipleSelectEnum: ['Guitar', 'Piano'], legacyTitledEnum: 'pet-1', titledSingleSelectEnum: 'hero-1' });
  });

  it('gives the unvalidated value for "send anyway"', () => {
    const ref = createRef<SchemaFormHandle>();
    const { container } = render(<SchemaForm ref={ref} schema={{ type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }} />);
    expect(ref.current!.submit()).toBeNull();
    expect(ref.current!.current()).toEqual({ ok: true, value: {} });
    fireEvent.click(screen.getByTestId('schema-form-raw-toggle'));
    fireEvent.change(screen.getByTestId('schema-form-raw'), { target: { value: '{"a":"x"}' } });
    let submitted: unknown;
    act(() => {
      submitted = ref.current!.submit();
    });
    expect(submitted).toBeNull();
    expect(ref.current!.current()).toEqual({ ok: true, value: { a: 'x' } });
    expect(container.textContent).toMatch(/must be number/);
  });

  it('enlarges a plain text field to a tall editor that keeps line breaks, and only text fields', () => {
    const ref = createRef<SchemaFormHandle>();
    const schema = { type: 'object', properties: { body: { type: 'string', title: 'Body' }, n: { type: 'number' }, when: { type: 'string', format: 'date' } } };
    const { container } = render(<SchemaForm ref={ref} schema={schema} initial={{ body: 'one line' }} />);
    // One switch: not for the number, not for the date.
    const size = screen.getByTestId('text-field-size');
    expect(screen.getAllByTestId('text-field-size')).toHaveLength(1);
    expect(size.getAttribute('aria-label')).toBe('Enlarge Body');
    fireEvent.click(size);
    const area = container.querySelector('textarea#root_body') as HTMLTextAreaElement;
    expect(area.value).toBe('one line');
    fireEvent.change(area, { target: { value: 'first\nsecond' } });
    expect(ref.current!.submit()).toMatchObject({ body: 'first\nsecond' });
    // Shrinking would drop the break: the switch is off while the value has one.
    expect((screen.getByTestId('text-field-size') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(area, { target: { value: 'flat' } });
    fireEvent.click(screen.getByTestId('text-field-size'));
    expect((container.querySelector('#root_body') as HTMLInputElement).tagName).toBe('INPUT');
    expect(ref.current!.submit()).toMatchObject({ body: 'flat' });
  });

  it('opens a long or multi-line value in the tall editor', () => {
    const { container } = render(<SchemaForm schema={{ type: 'object', properties: { q: { type: 'string' } } }} initial={{ q: 'a\nb' }} />);
    expect(container.querySelector('textarea#root_q')).not.toBeNull();
  });

  it('numbers array items instead of labelling them name-1', () => {
    const { container } = render(<SchemaForm schema={{ type: 'object', properties: { tags: { type: 'array', title: 'Tags', items: { type: 'string' } } } }} initial={{ tags: ['a', 'b'] }} />);
    expect(container.textContent).not.toMatch(/Tags-1/);
    expect(container.querySelectorAll('.array-item-index')).toHaveLength(2);
  });

  it('shows an optional object as absent until added, so its required children do not look required', () => {
    const ref = createRef<SchemaFormHandle>();
    const { container } = render(
      <SchemaForm ref={ref} schema={{ type: 'object', properties: { name: { type: 'string' }, extra: { type: 'object', title: 'Extra', properties: { x: { type: 'string' } }, required: ['x'] } } }} />,
    );
    expect(container.querySelector('#root_extra_x')).toBeNull();
    let v: unknown;
    act(() => {
      v = ref.current!.submit();
    });
    expect(v).toEqual({});
  });

  it('words the optional object control (no empty icon button) and adds, then removes, its fields', () => {
    const schema = { type: 'object', properties: { customInputs: { type: 'object', description: 'Custom parameters', properties: { x: { type: 'number' } } } } };
    const { container } = render(<SchemaForm schema={schema} />);
    const add = container.querySelector('.rjsf-add-optional-data') as HTMLButtonElement;
    expect(add.textContent).toBe('+ Add');
    expect(add.closest('legend')?.textContent).toMatch(/^customInputs/);
    fireEvent.click(add);
    expect(container.querySelector('#root_customInputs_x')).toBeTruthy();
    const remove = container.querySelector('.rjsf-remove-optional-data') as HTMLButtonElement;
    expect(remove.textContent).toBe('Remove');
    fireEvent.click(remove);
    expect(container.querySelector('#root_customInputs_x')).toBeNull();
    for (const b of container.querySelectorAll('button')) expect(b.textContent?.trim()).not.toBe('');
  });
});
