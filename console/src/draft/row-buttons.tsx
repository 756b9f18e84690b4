/** The small per-row buttons (move up, move down, delete), each with a name that says what it acts on. */

interface RowButtonsProps {
  readonly what: string;
  readonly onUp?: () => void;
  readonly onDown?: () => void;
  readonly onDelete?: () => void;
  readonly disabled?: boolean;
  readonly deleteDisabled?: boolean;
}

export const RowButtons = (props: RowButtonsProps) => (
  <div class="row-buttons">
    {props.onUp && (
      <button
        type="button"
        class="icon"
        aria-label={`Move ${props.what} up`}
        title="Move up"
        disabled={props.disabled}
        onClick={props.onUp}
      >
        ↑
      </button>
    )}
    {props.onDown && (
      <button
        type="button"
        class="icon"
        aria-label={`Move ${props.what} down`}
        title="Move down"
        disabled={props.disabled}
        onClick={props.onDown}
      >
        ↓
      </button>
    )}
    {props.onDelete && (
      <button
        type="button"
        class="icon danger"
        aria-label={`Delete ${props.what}`}
        title="Delete"
        disabled={props.disabled || props.deleteDisabled}
        onClick={props.onDelete}
      >
        ✕
      </button>
    )}
  </div>
);

/** How an entity is named in button labels: its name, or its position while it has none. */
export const nameOf = (kind: string, name: string | null | undefined, position: number): string =>
  name?.trim() ? `${kind} ${name.trim()}` : `${kind} ${position + 1} (no name yet)`;
