import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ItemProvenance } from '../api/types';
import type { Doc } from '../catalog/model';

/** What every table of the draft editor needs: the document, how to change it, and its problems. */
export interface Editor {
  readonly doc: Doc;
  /** Applies an editing operation (catalog/edit.ts) to the document. */
  apply(operation: (doc: Doc) => Doc): void;
  readonly readOnly: boolean;
  /**
   * Problems by field pointer (catalog/problems.ts `fieldOf`), as far as they are shown yet: at a field the
   * person has edited, the ones the draft came with, and all of them once a save was tried.
   */
  readonly problems: ReadonlyMap<string, readonly string[]>;
  /** The person has edited the field at `pointer`: its problems show from now on. */
  touch(pointer: string): void;
  /** A field's own problem the schema cannot see (a price that is not a number), or null once fixed. */
  reportLocal(pointer: string, message: string | null): void;
  readonly expanded: ReadonlySet<string>;
  toggleExpanded(itemId: string, open?: boolean): void;
  readonly provenance: ReadonlyMap<string, ItemProvenance>;
  /** What a person calls source `index`: its file name or the last part of its URL. */
  sourceNameOf(index: number): string;
  /** Shows where an item was read in the source panel. */
  showInSource(itemId: string): void;
  /** Moves focus to the field editing `pointer` (opening its item first). */
  focusField(pointer: string): void;
  /** A new entity id. */
  newId(): string;
}

export const EditorContext = createContext<Editor | null>(null);

export const useEditor = (): Editor => {
  const editor = useContext(EditorContext);
  if (!editor) throw new Error('useEditor outside the draft editor');
  return editor;
};

/** Items whose confidence is below this are marked and listed first. */
export const LOW_CONFIDENCE = 0.8;

export const percent = (confidence: number): string => `${Math.round(confidence * 100)}%`;
