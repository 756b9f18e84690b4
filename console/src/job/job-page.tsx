import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, type OpsApi } from '../api/client';
import { type ItemProvenance, languageOf, type OpsJob, provenanceByItem, sourceName } from '../api/types';
import type { Doc } from '../catalog/model';
import { randomId } from '../catalog/model';
import {
  fieldId,
  fieldOf,
  itemIndexOf,
  type Problem,
  problemsByField,
  validateDoc,
} from '../catalog/problems';
import { loadDraft, serverPointer, toUpload, type WireFormat } from '../catalog/wire';
import { DraftEditor } from '../draft/draft-editor';
import { type Editor, EditorContext } from '../draft/editor-context';
import { type SourceFocus, SourcePanel } from '../sources/source-panel';
import { ConfirmDialog, FailDialog } from './dialogs';
import { JobHeader } from './job-header';
import { JobWarnings } from './job-warnings';
import { type Status, StatusLine } from './status-line';

interface JobPageProps {
  readonly api: OpsApi;
  readonly id: string;
  readonly onUnauthorized: (error: ApiError) => void;
}

const describe = (error: unknown): string => {
  if (error instanceof ApiError) {
    if (error.status === 409) return `${error.message} Reload the page to see the job as it is now.`;
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
};

/** A job in review: its facts, its sources beside the editable draft, and save, complete and fail. */
export const JobPage = ({ api, id, onUnauthorized }: JobPageProps) => {
  const [job, setJob] = useState<OpsJob | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [doc, setDoc] = useState<Doc | null>(null);
  const docRef = useRef<Doc | null>(null);
  const [saved, setSaved] = useState<Doc | null>(null);
  const [format, setFormat] = useState<WireFormat>(2);
  const [serverProblems, setServerProblems] = useState<Problem[]>([]);
  const [localProblems, setLocalProblems] = useState<ReadonlyMap<string, string>>(new Map());
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [focus, setFocus] = useState<SourceFocus | null>(null);
  /**
   * Validation is shown where it helps, not before: at a field once the person has typed in it, everywhere
   * once a save was tried, and at once for the problems the draft came with. A category just added is not
   * "blank" until someone has had the chance to name it.
   */
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const [loadedWith, setLoadedWith] = useState<ReadonlySet<string>>(new Set());
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [dialog, setDialog] = useState<'complete' | 'fail' | null>(null);
  const [failError, setFailError] = useState<string | null>(null);
  /** The id of the element to focus after the next render. */
  const [pendingFocus, setPendingFocus] = useState<string | null>(null);
  /** The job has a draft the page could not load: nothing may be saved over it. */
  const [unloadable, setUnloadable] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  const fail = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 401) onUnauthorized(error);
    },
    [onUnauthorized],
  );

  const show = (next: OpsJob) => {
    const loaded = loadDraft(
      next.draft_catalog,
      {
        id: next.id,
        job_type: next.job_type,
        language: languageOf(next),
        merchant_name: next.job_data.merchant_name,
      },
      randomId,
    );
    setJob(next);
    docRef.current = loaded.doc;
    setDoc(loaded.doc);
    setSaved(loaded.doc);
    setFormat(loaded.format);
    setServerProblems([...loaded.problems]);
    setLoadedWith(
      new Set([...validateDoc(loaded.doc), ...loaded.problems].map((problem) => fieldOf(problem.pointer))),
    );
    setTouched(new Set());
    setAttempted(false);
  };

  useEffect(() => {
    let cancelled = false;
    api
      .getJob(id)
      .then(async (next) => {
        // A draft too large to come inline (over 1 MB) is read from its presigned URL; if that fails the
        // page must not show an empty catalog that a save would write over the real one.
        if (next.draft_catalog === null && next.draft_catalog_url) {
          const draft = await api.download(next.draft_catalog_url).catch(() => undefined);
          if (draft === undefined) {
            setUnloadable(true);
            return next;
          }
          return { ...next, draft_catalog: draft };
        }
        return next;
      })
      .then(
        (next) => {
          if (cancelled) return;
          show(next);
          document.title = `${next.job_data.merchant_name} · Operations console`;
          requestAnimationFrame(() => heading.current?.focus());
        },
        (error: unknown) => {
          if (cancelled) return;
          fail(error);
          setLoadError(
            error instanceof ApiError && error.status === 404
              ? 'There is no job with this id.'
              : describe(error),
          );
        },
      );
    return () => {
      cancelled = true;
    };
  }, [api, id]);

  const dirty = doc !== null && doc !== saved;
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    addEventListener('beforeunload', warn);
    return () => removeEventListener('beforeunload', warn);
  }, [dirty]);

  const schemaProblems = useMemo(() => (doc ? validateDoc(doc) : []), [doc]);
  const allProblems = useMemo(
    () => [
      ...schemaProblems,
      ...serverProblems,
      ...[...localProblems].map(([pointer, message]) => ({ pointer, message })),
    ],
    [schemaProblems, serverProblems, localProblems],
  );
  const shown = useCallback(
    (pointer: string) => {
      const field = fieldOf(pointer);
      return attempted || touched.has(field) || loadedWith.has(field) || localProblems.has(pointer);
    },
    [attempted, touched, loadedWith, localProblems],
  );
  const shownProblems = useMemo(() => allProblems.filter((p) => shown(p.pointer)), [allProblems, shown]);
  const byField = useMemo(
    () => problemsByField([...schemaProblems, ...serverProblems].filter((p) => shown(p.pointer))),
    [schemaProblems, serverProblems, shown],
  );

  // Layout effect: focus moves before the browser paints, so that typing right after a click lands in it.
  useLayoutEffect(() => {
    if (!pendingFocus) return;
    const element = document.getElementById(pendingFocus);
    if (element) {
      element.focus();
      element.scrollIntoView({ block: 'center' });
    }
    setPendingFocus(null);
  }, [pendingFocus, doc, expanded]);

  const readOnly = job?.state !== 'in_review' || status.kind === 'busy' || unloadable;
  const provenance = useMemo(() => (job ? provenanceByItem(job) : new Map<string, ItemProvenance>()), [job]);

  const editor: Editor | null = doc && {
    doc,
    apply: (operation) => {
      const current = docRef.current;
      if (!current || readOnly) return;
      const next = operation(current);
      if (next === current) return;
      docRef.current = next;
      setDoc(next);
      setServerProblems([]);
    },
    readOnly,
    problems: byField,
    touch: (pointer) =>
      setTouched((current) => (current.has(pointer) ? current : new Set([...current, pointer]))),
    reportLocal: (pointer, message) =>
      setLocalProblems((current) => {
        if ((current.get(pointer) ?? null) === message) return current;
        const next = new Map(current);
        if (message === null) next.delete(pointer);
        else next.set(pointer, message);
        return next;
      }),
    expanded,
    toggleExpanded: (itemId, open) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (open ?? !next.has(itemId)) next.add(itemId);
        else next.delete(itemId);
        return next;
      }),
    provenance,
    sourceNameOf: (index) => {
      const source = job?.sources[index];
      return source ? sourceName(source) : `source ${index + 1}`;
    },
    showInSource: (itemId) => setFocus(provenance.get(itemId) ?? null),
    focusField: (pointer) => {
      const index = itemIndexOf(pointer);
      const item = index === null ? undefined : docRef.current?.items[index];
      if (item && /\/(variants|option_names|calories|modifier_group_ids)/.test(pointer)) {
        setExpanded((current) => (current.has(item.id) ? current : new Set([...current, item.id])));
      }
      setPendingFocus(pointer === '' ? 'problems-heading' : fieldId(pointer));
    },
    newId: randomId,
  };

  const save = async (): Promise<boolean> => {
    const current = docRef.current;
    if (!job || !current || unloadable) return false;
    if (allProblems.length > 0) {
      setAttempted(true);
      setStatus({ kind: 'error', text: `Not saved: ${allProblems.length} problem(s) to fix first.` });
      setPendingFocus('problems-heading');
      return false;
    }
    setStatus({ kind: 'busy', text: 'Saving…' });
    try {
      const next = await api.putCatalog(job.id, toUpload(current, format));
      setJob((j) =>
        j
          ? {
              ...j,
              ...next,
              draft_catalog: j.draft_catalog,
              draft_provenance: j.draft_provenance,
              sources: j.sources,
            }
          : j,
      );
      setSaved(current);
      setStatus({ kind: 'ok', text: `Saved at ${new Date().toLocaleTimeString()}.` });
      return true;
    } catch (error) {
      fail(error);
      if (error instanceof ApiError && error.problem.errors?.length) {
        setServerProblems(
          error.problem.errors.map((e) => ({
            pointer: serverPointer(e.pointer, format),
            message: e.message,
          })),
        );
        setPendingFocus('problems-heading');
      }
      setStatus({ kind: 'error', text: `Not saved: ${describe(error)}` });
      return false;
    }
  };

  const complete = async () => {
    setDialog(null);
    if (!job) return;
    if (dirty && !(await save())) return;
    setStatus({ kind: 'busy', text: 'Completing…' });
    try {
      const next = await api.complete(job.id);
      setJob((j) => (j ? { ...j, ...next } : j));
      setStatus({ kind: 'ok', text: 'Completed: the client can export this catalog now.' });
      requestAnimationFrame(() => heading.current?.focus());
    } catch (error) {
      fail(error);
      setStatus({ kind: 'error', text: `Not completed: ${describe(error)}` });
    }
  };

  const failJob = async (reason: { code: string; message: string }) => {
    if (!job) return;
    setStatus({ kind: 'busy', text: 'Failing the job…' });
    try {
      const next = await api.fail(job.id, reason);
      setJob((j) => (j ? { ...j, ...next } : j));
      setDialog(null);
      setFailError(null);
      setStatus({ kind: 'ok', text: `Failed with ${reason.code}.` });
    } catch (error) {
      fail(error);
      setFailError(describe(error));
      setStatus({ kind: 'idle' });
    }
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        if (!readOnly) void save();
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  });

  if (loadError) {
    return (
      <div class="page">
        <h1 tabIndex={-1}>Job not available</h1>
        <p class="error" role="alert">
          {loadError}
        </p>
        <p>
          <a href="#/">Back to the review queue</a>
        </p>
      </div>
    );
  }
  if (!job || !doc || !editor) return <p class="muted page">Loading the job…</p>;
  const inReview = job.state === 'in_review';
  return (
    <div class="job-page">
      <p class="back">
        <button
          type="button"
          class="link"
          onClick={() => {
            if (!dirty || confirm('Leave this job without saving your changes?')) location.hash = '#/';
          }}
        >
          ← Review queue
        </button>
      </p>
      <JobHeader job={job} headingRef={heading} />
      <div class="toolbar">
        <button
          type="button"
          class="primary"
          disabled={!inReview || !dirty || status.kind === 'busy'}
          onClick={() => void save()}
        >
          Save
        </button>
        <button
          type="button"
          disabled={!inReview || status.kind === 'busy'}
          onClick={() => setDialog('complete')}
        >
          {dirty ? 'Save and complete…' : 'Complete…'}
        </button>
        <button
          type="button"
          class="danger"
          disabled={!inReview || status.kind === 'busy'}
          onClick={() => setDialog('fail')}
        >
          Fail…
        </button>
        <StatusLine status={status} dirty={dirty} problems={shownProblems.length} />
      </div>
      {unloadable && (
        <p class="notice" role="alert">
          The draft of this job is too large to load here. It can be completed or failed as it is; to change
          it, download it (draft_catalog_url of GET /v1/ops/jobs/{job.id}) and PUT the corrected document.
        </p>
      )}
      {!inReview && (
        <p class="notice">
          This job is {job.state.replace('_', ' ')}: its catalog can no longer be changed here.
        </p>
      )}
      <div class="panes">
        <section class="source-pane" aria-labelledby="sources-heading">
          <h2 id="sources-heading">Sources</h2>
          <SourcePanel api={api} sources={job.sources} results={job.results} focus={focus} />
        </section>
        <section class="draft-pane" aria-labelledby="draft-heading">
          <h2 id="draft-heading">Draft catalog</h2>
          <JobWarnings
            results={job.results}
            sources={job.sources}
            onShow={(place: SourceFocus) => setFocus(place)}
          />
          <EditorContext.Provider value={editor}>
            <DraftEditor problems={shownProblems} />
          </EditorContext.Provider>
        </section>
      </div>
      <ConfirmDialog
        open={dialog === 'complete'}
        title="Complete this job?"
        confirmLabel={dirty ? 'Save and complete' : 'Complete'}
        onConfirm={() => void complete()}
        onCancel={() => setDialog(null)}
      >
        <p>
          The catalog as shown ({doc.items.length} items in {doc.categories.length} categories) becomes the
          client's result, and their exports are delivered.
        </p>
      </ConfirmDialog>
      <FailDialog
        open={dialog === 'fail'}
        busy={status.kind === 'busy'}
        error={failError}
        onFail={(reason) => void failJob(reason)}
        onCancel={() => {
          setDialog(null);
          setFailError(null);
        }}
      />
    </div>
  );
};
