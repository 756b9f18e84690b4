import { useEffect, useState } from 'preact/hooks';
import type { Price } from '../catalog/model';
import { formatPrice, parseAmount } from '../catalog/money';
import { fieldId } from '../catalog/problems';
import { useEditor } from './editor-context';

/**
 * Inputs bound to one value of the document. Each has the id of its pointer (so that a problem list can
 * move focus to it), an accessible name, and its problems right under it, tied with aria-describedby.
 * Values are set as text (`value`), never as markup.
 */

const errorId = (pointer: string) => `error:${pointer}`;

const FieldProblems = ({ pointer, messages }: { pointer: string; messages: readonly string[] }) =>
  messages.length === 0 ? null : (
    <span class="field-error" id={errorId(pointer)}>
      {messages.join('; ')}
    </span>
  );

interface TextFieldProps {
  readonly pointer: string;
  readonly label: string;
  readonly value: string | null;
  /** `null` for an empty optional field (`description`, `sku`, ...). */
  readonly onValue: (value: string | null) => void;
  readonly optional?: boolean;
  readonly multiline?: boolean;
  readonly placeholder?: string;
  readonly class?: string;
}

export const TextField = (props: TextFieldProps) => {
  const { problems, readOnly, touch } = useEditor();
  const messages = problems.get(props.pointer) ?? [];
  const common = {
    id: fieldId(props.pointer),
    'aria-label': props.label,
    'aria-invalid': messages.length > 0 ? ('true' as const) : undefined,
    'aria-describedby': messages.length > 0 ? errorId(props.pointer) : undefined,
    value: props.value ?? '',
    placeholder: props.placeholder,
    readOnly,
    onInput: (event: Event) => {
      const value = (event.currentTarget as HTMLInputElement).value;
      touch(props.pointer);
      props.onValue(props.optional && value.trim() === '' ? null : value);
    },
  };
  return (
    <div class={`field ${props.class ?? ''}`}>
      {props.multiline ? <textarea rows={2} {...common} /> : <input type="text" {...common} />}
      <FieldProblems pointer={props.pointer} messages={messages} />
    </div>
  );
};

interface NumberFieldProps {
  readonly pointer: string;
  readonly label: string;
  readonly value: number | null;
  readonly onValue: (value: number | null) => void;
  readonly min?: number;
}

export const NumberField = (props: NumberFieldProps) => {
  const { problems, readOnly, touch } = useEditor();
  const messages = problems.get(props.pointer) ?? [];
  return (
    <div class="field field-number">
      <input
        type="number"
        inputMode="numeric"
        step={1}
        min={props.min}
        id={fieldId(props.pointer)}
        aria-label={props.label}
        aria-invalid={messages.length > 0 ? 'true' : undefined}
        aria-describedby={messages.length > 0 ? errorId(props.pointer) : undefined}
        value={props.value === null ? '' : String(props.value)}
        readOnly={readOnly}
        onInput={(event) => {
          const text = (event.currentTarget as HTMLInputElement).value;
          touch(props.pointer);
          props.onValue(text === '' ? null : Number(text));
        }}
      />
      <FieldProblems pointer={props.pointer} messages={messages} />
    </div>
  );
};

interface SelectFieldProps {
  readonly pointer: string;
  readonly label: string;
  readonly value: string;
  readonly options: readonly { readonly value: string; readonly label: string }[];
  readonly onValue: (value: string) => void;
}

export const SelectField = (props: SelectFieldProps) => {
  const { problems, readOnly, touch } = useEditor();
  const messages = problems.get(props.pointer) ?? [];
  return (
    <div class="field">
      <select
        id={fieldId(props.pointer)}
        aria-label={props.label}
        aria-invalid={messages.length > 0 ? 'true' : undefined}
        aria-describedby={messages.length > 0 ? errorId(props.pointer) : undefined}
        value={props.value}
        disabled={readOnly}
        onChange={(event) => {
          touch(props.pointer);
          props.onValue((event.currentTarget as HTMLSelectElement).value);
        }}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldProblems pointer={props.pointer} messages={messages} />
    </div>
  );
};

interface PriceFieldProps {
  readonly pointer: string;
  readonly label: string;
  readonly price: Price | null;
  readonly currency: string;
  readonly onPrice: (price: Price | null) => void;
  readonly disabled?: boolean;
  /** What no price means here, said beside a blank field (a modifier: no extra charge). */
  readonly blankNote?: string;
}

/**
 * A price typed as the service's readers accept it (`12.50`, `12,50 €`, `$12`: catalog/money.ts), stored as
 * minor units. Text that is not a price stays in the field with its problem (and blocks saving) instead of
 * being dropped. A blank price is no price: allowed, and said beside the field (a warning, not an error),
 * so that it is never saved unnoticed.
 */
export const PriceField = (props: PriceFieldProps) => {
  const { problems, readOnly, reportLocal, touch } = useEditor();
  const [text, setText] = useState(() => formatPrice(props.price));
  const [local, setLocal] = useState<string | null>(null);
  const currency = props.price?.currency ?? props.currency;

  // A change from outside (a reload, a moved variant) shows the new value unless the text already means it.
  useEffect(() => {
    const parsed = parseAmount(text, currency);
    if (!parsed.ok || parsed.amount !== (props.price?.amount ?? null)) {
      setText(formatPrice(props.price));
      setLocal(null);
    }
  }, [props.price?.amount, currency]);

  useEffect(() => () => reportLocal(props.pointer, null), [props.pointer]);

  const messages = [...(local ? [local] : []), ...(problems.get(props.pointer) ?? [])];
  return (
    <div class="field field-price">
      <span class="currency" aria-hidden="true">
        {currency}
      </span>
      <input
        type="text"
        inputMode="decimal"
        id={fieldId(props.pointer)}
        aria-label={`${props.label} (${currency})`}
        aria-invalid={messages.length > 0 ? 'true' : undefined}
        aria-describedby={
          messages.length > 0
            ? errorId(props.pointer)
            : props.price === null && !props.disabled
              ? `note:${props.pointer}`
              : undefined
        }
        value={text}
        readOnly={readOnly}
        disabled={props.disabled}
        onInput={(event) => {
          const next = (event.currentTarget as HTMLInputElement).value;
          touch(props.pointer);
          setText(next);
          const parsed = parseAmount(next, currency);
          if (parsed.ok) {
            setLocal(null);
            reportLocal(props.pointer, null);
            props.onPrice(parsed.amount === null ? null : { amount: parsed.amount, currency });
          } else {
            setLocal(parsed.message);
            reportLocal(props.pointer, parsed.message);
          }
        }}
        onBlur={() => {
          const parsed = parseAmount(text, currency);
          if (parsed.ok)
            setText(formatPrice(parsed.amount === null ? null : { amount: parsed.amount, currency }));
        }}
      />
      <FieldProblems pointer={props.pointer} messages={messages} />
      {messages.length === 0 && props.price === null && !props.disabled && (
        <span class="field-note" id={`note:${props.pointer}`}>
          {props.blankNote ?? 'No price: sold without one'}
        </span>
      )}
    </div>
  );
};
