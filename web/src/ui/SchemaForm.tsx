// A form generated from a JSON Schema (tool inputs, elicitation requests), built on
// @rjsf/core with plain-CSS templates, plus a raw-JSON mode. Parents read the value through
// the imperative handle so the submit button can live anywhere (a modal footer…): `submit`
// validates against the server's schema, `current` returns what is typed without judging it
// (for "send anyway"). The form draws from `toFormSchema`'s copy of the schema.
import { useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import Form from '@rjsf/core';
import { Maximize2, Minimize2 } from 'lucide-react';
import { getTemplate, type ArrayFieldItemTemplateProps, type FieldProps, type IconButtonProps, type OptionalDataControlsTemplateProps, type RJSFSchema, type WidgetProps } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { toFormSchema } from './formSchema';
import { NUMERIC_FORMATS, cleanValue, hasNoFields, normalizeSchema, parseRawArgs, validateAgainst, type Schema } from './schema';

// Rust (schemars) and other generators put numeric formats such as uint32 on numbers; they
// are checked by the schema's own type/minimum, so the form only needs to know the names.
const validator = customizeValidator({ customFormats: Object.fromEntries(NUMERIC_FORMATS.map((f) => [f, () => true])) });

export type CurrentValue = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

export interface SchemaFormHandle {
  /** Validates (showing messages on the fields) and returns the value, or null if invalid. */
  submit(): Record<string, unknown> | null;
  /** What is typed now, unvalidated (raw JSON must still parse to an object). */
  current(): CurrentValue;
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

/** Array items numbered, with their buttons beside them (no generated `name-1` labels). */
function ItemTemplate(props: ArrayFieldItemTemplateProps) {
  const { children, className, buttonsProps, hasToolbar, index, registry } = props;
  const Buttons = registry.templates.ArrayFieldItemButtonsTemplate;
  return (
    <div className={`${className ?? ''} array-item`}>
      <span className="array-item-index" aria-hidden="true">
        {index + 1}.
      </span>
      <div className="array-item-body">{children}</div>
      {hasToolbar && (
        <div className="array-item-toolbox">
          <Buttons {...buttonsProps} />
        </div>
      )}
    </div>
  );
}

/** A schema the form cannot draw: say so briefly and point at Raw JSON, no schema dump. */
function Unsupported(props: FieldProps & { reason?: string }) {
  const name = props.fieldPathId?.$id?.replace(/^root_?/, '') || 'this field';
  return (
    <div className="unsupported-field small" data-testid="form-unsupported">
      The form cannot draw <code>{name}</code>
      {props.reason ? ` (${props.reason})` : ''}. Switch to Raw JSON to enter it.
    </div>
  );
}

/** An optional object's add/remove control as a worded button (rjsf's default is an icon
 * button whose Bootstrap glyph this app does not load: an empty square beside the title). */
function OptionalControls({ id, label, onAddClick, onRemoveClick }: OptionalDataControlsTemplateProps) {
  if (onAddClick || onRemoveClick) {
    const add = Boolean(onAddClick);
    return (
      <button
        type="button"
        id={id}
        className={`btn btn-sm btn-ghost ${add ? 'rjsf-add-optional-data' : 'rjsf-remove rjsf-remove-optional-data'}`}
        onClick={onAddClick ?? onRemoveClick}
        title={label}
      >
        {add ? '+ Add' : 'Remove'}
      </button>
    );
  }
  return (
    <em id={id} className="muted small">
      {label}
    </em>
  );
}

/** Length from which a plain text value starts in the tall editor. */
const LONG_TEXT = 80;

/** A plain text field with an "Enlarge" switch to a tall, resizable editor for long or
 * multi-line values (a value that already is one starts there). A value with a line break
 * cannot go back to the one-line input, which would drop the break. */
function TextWidget(props: WidgetProps) {
  const { registry, schema, options, value, id, label } = props;
  const [big, setBig] = useState(() => typeof value === 'string' && (value.includes('\n') || value.length > LONG_TEXT));
  const Base = getTemplate('BaseInputTemplate', registry, options);
  if (schema.type !== 'string' || schema.format) return <Base {...props} />;
  const Area = registry.widgets.TextareaWidget;
  const multiLine = typeof value === 'string' && value.includes('\n');
  const toggle = () => {
    setBig(!big);
    requestAnimationFrame(() => document.getElementById(id)?.focus());
  };
  return (
    <div className={`text-field${big ? ' text-field-big' : ''}`}>
      {big ? <Area {...props} options={{ ...options, rows: 8 }} /> : <Base {...props} />}
      <button
        type="button"
        className="text-field-size"
        aria-pressed={big}
        aria-label={`${big ? 'Shrink' : 'Enlarge'} ${label || 'the field'}`}
        title={big && multiLine ? 'The value has line breaks: it stays in the tall editor' : big ? 'Back to one line' : 'Enlarge: a tall editor for long or multi-line text'}
        disabled={big && multiLine}
        onClick={toggle}
        data-testid="text-field-size"
      >
        {big ? <Minimize2 size={14} aria-hidden="true" /> : <Maximize2 size={14} aria-hidden="true" />}
      </button>
    </div>
  );
}

const widgets = { TextWidget };

const templates = {
  ArrayFieldItemTemplate: ItemTemplate,
  OptionalDataControlsTemplate: OptionalControls,
  UnsupportedFieldTemplate: Unsupported,
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
  onChange,
  onSubmitShortcut,
  allowRaw = true,
  testId = 'schema-form',
  ref,
}: {
  schema: Schema | undefined;
  initial?: Record<string, unknown>;
  /** Every edit, with the form's value (not validated). */
  onChange?: (value: Record<string, unknown>) => void;
  /** Ctrl/Cmd+Enter inside the form. */
  onSubmitShortcut?: () => void;
  allowRaw?: boolean;
  testId?: string;
  ref?: Ref<SchemaFormHandle>;
}) {
  const schema = useMemo(() => normalizeSchema(rawSchema), [rawSchema]);
  const form = useMemo(() => toFormSchema(schema), [schema]);
  const [data, setData] = useState<Record<string, unknown>>(initial ?? {});
  const [raw, setRaw] = useState(false);
  const [rawText, setRawText] = useState('');
  const [rawErrors, setRawErrors] = useState<string[]>([]);
  const formRef = useRef<Form>(null);
  const noFields = hasNoFields(schema);

  // The form's own state includes the schema defaults it filled in.
  const formValue = () => (cleanValue((formRef.current?.state.formData as Record<string, unknown> | undefined) ?? data, schema) as Record<string, unknown>) ?? {};

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
      if (formRef.current && !formRef.current.validateForm()) return null;
      return formValue();
    },
    current() {
      if (raw) {
        const parsed = parseRawArgs(rawText);
        return parsed.ok ? parsed : { ok: false, error: parsed.error };
      }
      return { ok: true, value: noFields ? {} : formValue() };
    },
  }));

  const toggleRaw = () => {
    if (!raw) {
      setRawText(JSON.stringify(formValue(), null, 2));
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
    onChange?.(parsed.value);
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
            onChange={(e) => {
              setRawText(e.target.value);
              const parsed = parseRawArgs(e.target.value);
              if (parsed.ok) onChange?.(parsed.value);
            }}
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
          schema={form.schema as RJSFSchema}
          uiSchema={{
            ...form.uiSchema,
            'ui:submitButtonOptions': { norender: true },
            // An optional object starts absent (an "add" control), so its required children do
            // not look required and nothing is sent for it unless it is filled in.
            'ui:globalOptions': { enableOptionalDataFieldForType: ['object'] },
          }}
          validator={validator}
          formData={data}
          onChange={(e) => {
            const v = (e.formData ?? {}) as Record<string, unknown>;
            setData(v);
            onChange?.((cleanValue(v, schema) as Record<string, unknown>) ?? {});
          }}
          onSubmit={() => onSubmitShortcut?.()}
          onError={() => undefined}
          templates={templates}
          widgets={widgets}
          showErrorList={false}
          noHtml5Validate
          focusOnFirstError
        />
      )}
    </div>
  );
}
