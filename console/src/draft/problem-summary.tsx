import type { Doc } from '../catalog/model';
import { describePointer, fieldOf, type Problem } from '../catalog/problems';
import { useEditor } from './editor-context';

interface ProblemSummaryProps {
  readonly problems: readonly Problem[];
  /** Set once a save was refused: the summary is then a heading that takes focus. */
  readonly id: string;
}

/** Every problem of the draft, each with a button to its field; the page focuses it when a save is refused. */
export const ProblemSummary = ({ problems, id }: ProblemSummaryProps) => {
  const editor = useEditor();
  if (problems.length === 0) return null;
  const shown = problems.slice(0, 50);
  return (
    <section class="problem-summary" aria-labelledby={id}>
      <h3 id={id} tabIndex={-1}>
        {problems.length === 1
          ? '1 problem to fix before saving'
          : `${problems.length} problems to fix before saving`}
      </h3>
      <ul>
        {shown.map((problem, i) => (
          <li key={`${problem.pointer}:${i}`}>
            <button type="button" class="link" onClick={() => editor.focusField(fieldOf(problem.pointer))}>
              {describePointer(editor.doc as Doc, problem.pointer)}
            </button>
            : {problem.message}
          </li>
        ))}
      </ul>
      {problems.length > shown.length && <p>… and {problems.length - shown.length} more.</p>}
    </section>
  );
};
