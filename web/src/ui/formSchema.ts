// Turns a server's JSON Schema into what the form library renders well, with a uiSchema
// beside it: multi-select enums (`items.enum`, `items.anyOf/oneOf` of `{const, title}`) as
// checkbox groups, legacy `enumNames` as option labels, nullable types (`["string","null"]`)
// as their one real type, and array items without `name-1` labels. The schema used to
// validate what is sent stays the server's own; this copy only drives the form. Pure.
import type { UiSchema } from '@rjsf/utils';
import type { Schema } from './schema';

export interface FormSchema {
  schema: Schema;
  uiSchema: UiSchema;
}

const isObj = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);

/** Every alternative is a constant (`{const}` or a one-value `enum`), i.e. a choice list. */
function isChoiceList(alts: unknown): boolean {
  return Array.isArray(alts) && alts.length > 0 && alts.every((a) => isObj(a) && ('const' in a || (Array.isArray(a.enum) && a.enum.length === 1)));
}

export function isMultiSelect(s: Schema): boolean {
  if (s.type !== 'array' || !isObj(s.items)) return false;
  const it = s.items;
  return Array.isArray(it.enum) || isChoiceList(it.anyOf) || isChoiceList(it.oneOf);
}

function singleType(t: unknown): unknown {
  if (!Array.isArray(t)) return t;
  const real = t.filter((x) => x !== 'null');
  return real.length === 1 ? real[0] : t;
}

function convert(input: Schema, depth: number): FormSchema {
  if (depth > 32) return { schema: input, uiSchema: {} };
  const schema: Schema = { ...input };
  const ui: UiSchema = {};
  schema.type = singleType(schema.type);
  if (schema.type === undefined) delete schema.type;

  if (Array.isArray(schema.enum) && Array.isArray(schema.enumNames)) {
    ui['ui:enumNames'] = schema.enumNames.map(String);
    delete schema.enumNames;
  }
  if (isObj(schema.properties)) {
    const props: Schema = {};
    for (const [k, v] of Object.entries(schema.properties)) {
      if (!isObj(v)) {
        props[k] = v;
        continue;
      }
      const c = convert(v, depth + 1);
      props[k] = c.schema;
      if (Object.keys(c.uiSchema).length) ui[k] = c.uiSchema;
    }
    schema.properties = props;
  }
  if (schema.type === 'array' && isObj(schema.items)) {
    if (isMultiSelect(schema)) {
      // The form library draws a checkbox group only for unique items.
      schema.uniqueItems = true;
      ui['ui:widget'] = 'checkboxes';
      const c = convert(schema.items, depth + 1);
      schema.items = c.schema;
      if (Array.isArray(c.uiSchema['ui:enumNames'])) ui['ui:enumNames'] = c.uiSchema['ui:enumNames'];
    } else {
      const c = convert(schema.items, depth + 1);
      schema.items = c.schema;
      // The item template numbers the items; the generated `name-1` label adds nothing.
      ui.items = { ...c.uiSchema, 'ui:label': false };
    }
  }
  for (const alt of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[alt]) && !isChoiceList(schema[alt])) {
      schema[alt] = schema[alt].map((a: unknown) => (isObj(a) ? convert(a, depth + 1).schema : a));
    }
  }
  return { schema, uiSchema: ui };
}

export function toFormSchema(schema: Schema): FormSchema {
  return convert(schema, 0);
}
