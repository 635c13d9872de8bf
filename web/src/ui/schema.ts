// Pure helpers around JSON Schemas that servers send (tool input/output schemas, elicitation
// requestedSchema). Kept free of React so they can be unit-tested.
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export type Schema = Record<string, unknown>;

/** `v` as a (sub)schema when it is one (an object), else undefined. */
export function asSchema(v: unknown): Schema | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Schema) : undefined;
}

/**
 * Makes a server's schema usable by the form: drops `$schema` (the form validator speaks
 * draft-07 and would reject an unknown meta-schema) and defaults the root to an object.
 */
export function normalizeSchema(schema: Schema | undefined | null): Schema {
  if (!schema || typeof schema !== 'object') return { type: 'object', properties: {} };
  const { $schema: _drop, ...rest } = schema;
  if (!rest.type && (rest.properties || !rest.anyOf)) rest.type = 'object';
  return rest;
}

/** True when an object schema has no properties to fill in. */
export function hasNoFields(schema: Schema): boolean {
  return schema.type === 'object' && (!schema.properties || Object.keys(schema.properties).length === 0) && !schema.additionalProperties;
}

/**
 * Removes what a form leaves behind that the server did not ask for: `undefined` entries,
 * and empty strings in optional properties (an untouched optional text box means "not given").
 */
export function cleanValue(value: unknown, schema?: Schema): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map((v) => cleanValue(v, asSchema(schema?.items)));
  if (value && typeof value === 'object') {
    const required = new Set<string>(Array.isArray(schema?.required) ? schema.required : []);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) continue;
      if (v === '' && !required.has(k)) continue;
      out[k] = cleanValue(v, asSchema(asSchema(schema?.properties)?.[k]));
    }
    return out;
  }
  return value;
}

/** Parses the raw-JSON editor's text: empty means `{}`; the root must be an object. */
export function parseRawArgs(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  const t = text.trim();
  if (!t) return { ok: true, value: {} };
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch (e) {
    return { ok: false, error: `Not valid JSON: ${(e as Error).message}` };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { ok: false, error: 'Arguments must be a JSON object' };
  return { ok: true, value: v as Record<string, unknown> };
}

/** Numeric `format`s that code generators emit (schemars, pydantic…). */
export const NUMERIC_FORMATS = ['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'uint', 'int', 'float', 'double'];

const INT_RANGES: Record<string, [number, number]> = {
  int8: [-128, 127],
  int16: [-32768, 32767],
  int32: [-2147483648, 2147483647],
  uint8: [0, 255],
  uint16: [0, 65535],
  uint32: [0, 4294967295],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  uint64: [0, Number.MAX_SAFE_INTEGER],
  uint: [0, Number.MAX_SAFE_INTEGER],
  int: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

function addNumericFormats(ajv: Ajv): void {
  for (const f of NUMERIC_FORMATS) {
    const range = INT_RANGES[f];
    ajv.addFormat(f, {
      type: 'number',
      validate: range ? (n: number) => Number.isInteger(n) && n >= range[0] && n <= range[1] : () => true,
    });
  }
}

const ajvCache = new Map<string, Ajv>();
function ajvFor(schema: Schema): Ajv {
  const draft2020 = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12');
  const key = draft2020 ? '2020' : '07';
  let ajv = ajvCache.get(key);
  if (!ajv) {
    ajv = draft2020
      ? new Ajv2020({ strict: false, allErrors: true, validateSchema: false })
      : new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(ajv as unknown as Ajv);
    addNumericFormats(ajv as unknown as Ajv);
    ajvCache.set(key, ajv);
  }
  return ajv;
}

/** Validates `value` against `schema`; returns readable error lines (empty = valid). */
export function validateAgainst(schema: Schema, value: unknown): string[] {
  let validate;
  try {
    const { $id: _id, ...rest } = schema;
    validate = ajvFor(schema).compile(rest);
  } catch (e) {
    return [`The schema itself is invalid: ${(e as Error).message}`];
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((er) => `${er.instancePath || '(root)'} ${er.message ?? 'is invalid'}`);
}
