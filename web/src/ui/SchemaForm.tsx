// A form generated from a JSON Schema (tool inputs, elicitation requests), built on
// @rjsf/core with plain-CSS templates, plus a raw-JSON mode. Parents read a validated value
// through the imperative handle so the submit button can live anywhere (a modal footer…).
import { useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import Form from '@rjsf/core';
import type { IconButtonProps, RJSFSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { NUMERIC_FORMATS, cleanValue, hasNoFields, normalizeSchema, parseRawArgs, validateAgainst, type Schema } from './schema';

// Rust (schemars) and other generators put numeric formats such as uint32 on numbers; they
// are checked by the schema's own type/minimum, so the form only needs to know the names.
const validator = customizeValidator({ customFormats: Object.fromEntries(NUMERIC_FORMATS.map((f) => [f, () => true])) });

export interface SchemaFormHandle {
  /** Validates (showing messages on the fields) and returns the value, or null if invalid. */
  submit(): Record<string, unknown> | null;
}

function TextButton(label: string, cls = '') {
  return function Btn(props: IconButtonProps) {
    const { onClick, disabled, title, id } = props;
    return (
      <button type="button" id={id} className={`btn btn-sm btn-ghost ${cls}`} onClick={onClick} disabled={disabled} title={title ?? label}>
        {label}
      </button>
    );
  };
}

const templates = {
  ButtonTemplates: {
    AddButton: TextButton('+ Add', 'rjsf-add'),
    RemoveButton: TextButton('Remove', 'rjsf-remove'),
    MoveUpButton: TextButton('↑'),
    MoveDownButton: TextButton('↓'),
    CopyButton: TextButton('Copy'),
    ClearButton: TextButton('Clear'),
  },
};

export function SchemaForm({
  schema: rawSchema,
  initial,
  onSubmitShortcut,
  allowRaw = true,
  testId = 'schema-form',
  ref,
}: {
  schema: Schema | undefined;
  initial?: Record<string, unknown>;
  /** Ctrl/Cmd+Enter inside the form. */
  onSubmitShortcut?: () => void;
  allowRaw?: boolean;
  testId?: string;
  ref?: Ref<SchemaFormHandle>;
}) {
  const schema = useMemo(() => normalizeSchema(rawSchema), [rawSchema]);
  const [data, setData] = useState<Record<string, unknown>>(initial ?? {});
  const [raw, setRaw] = useState(false);
  const [rawText, setRawText] = useState('');
  const [rawErrors, setRawErrors] = useState<string[]>([]);
  const formRef = useRef<Form>(null);
  const noFields = hasNoFields(schema);

  useImperativeHandle(ref, () => ({
    submit() {
      if (raw) {
        const parsed = parseRawArgs(rawText);
        if (!parsed.ok) {
          setRawErrors([parsed.error]);
          return null;
        }
        const errs = validateAgainst(schema, parsed.value);
        setRawErrors(errs);
        return errs.length ? null : parsed.value;
      }
      if (noFields) return {};
      const form = formRef.current;
      if (form && !form.validateForm()) return null;
      // The form's own state includes the schema defaults it filled in.
      const value = (form?.state.formData as Record<string, unknown> | undefined) ?? data;
      return (cleanValue(value, schema) as Record<string, unknown>) ?? {};
    },
  }));

  const toggleRaw = () => {
    if (!raw) {
      const value = (formRef.current?.state.formData as Record<string, unknown> | undefined) ?? data;
      setRawText(JSON.stringify(cleanValue(value, schema) ?? {}, null, 2));
      setRawErrors([]);
      setRaw(true);
      return;
    }
    const parsed = parseRawArgs(rawText);
    if (!parsed.ok) {
      setRawErrors([parsed.error]);
      return;
    }
    setData(parsed.value);
    setRaw(false);
  };

  return (
    <div
      className="schema-form"
      data-testid={testId}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && onSubmitShortcut) {
          e.preventDefault();
          onSubmitShortcut();
        }
      }}
    >
      {allowRaw && (
        <div className="schema-form-bar">
          <label className="check">
            <input type="checkbox" checked={raw} onChange={toggleRaw} data-testid={`${testId}-raw-toggle`} />
            Raw JSON
          </label>
        </div>
      )}
      {raw ? (
        <>
          <textarea
            className="code-input"
            rows={Math.min(20, Math.max(5, rawText.split('\n').length + 1))}
            value={rawText}
            spellCheck={false}
            onChange={(e) => setRawText(e.target.value)}
            data-testid={`${testId}-raw`}
            aria-label="Arguments as JSON"
          />
          {rawErrors.length > 0 && (
            <ul className="field-errors" data-testid={`${testId}-errors`}>
              {rawErrors.map((e, i) => (
                <li key={i}>{e}</li>
              ))}
            </ul>
          )}
        </>
      ) : noFields ? (
        <div className="muted small">No arguments.</div>
      ) : (
        <Form
          ref={formRef}
          schema={schema as RJSFSchema}
          validator={validator}
          formData={data}
          onChange={(e) => setData((e.formData ?? {}) as Record<string, unknown>)}
          onSubmit={() => onSubmitShortcut?.()}
          templates={templates}
          showErrorList={false}
          noHtml5Validate
          focusOnFirstError
          uiSchema={{ 'ui:submitButtonOptions': { norender: true } }}
        />
      )}
    </div>
  );
}
