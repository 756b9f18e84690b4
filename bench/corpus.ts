/**
 * `npm run bench:corpus`: the real-world corpus of `../shared/corpus` (merchant files and restaurant menus that
 * other software and other people wrote) through the very harness its tests use, summed up as one table.
 *
 * Each part is its own `node --test` run of the corpus' test file (`files/files.test.mjs`,
 * `menus/menus.test.mjs`), which starts this checkout with `npm start`, uploads every fixture and checks the
 * job against the fixture's truth. The runs' TAP output is parsed: per merchant file pass/fail, the job state,
 * the item count, the profile that read it and the problems found; per menu the recall (dishes right / dishes)
 * and the seconds per page. Then totals: files passed, dishes found per kind of menu, and whether confidence
 * means something: the share of drafted dishes marked low-confidence among those drafted right and those drafted
 * wrong (issue 23), from the operations API's answers the menus test keeps (its WILD_OUT directory).
 *
 *   npm run bench:corpus                          files, then menus (menus are slow: OCR)
 *   npm run bench:corpus -- --only=files          one part (files | menus)
 *   npm run bench:corpus -- --json                one JSON document instead of the table
 *   WILD_ONLY=a.csv,b.xlsx npm run bench:corpus -- --only=files     some files only (the tests' own variable)
 *   CORPUS_DIR=/elsewhere/corpus npm run bench:corpus               another copy of the corpus
 *
 * Skipped (with a message, exit 0) when the corpus is absent: a user's clone has none.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

type Part = 'files' | 'menus';

/** One corpus test as the TAP output reports it: its title, whether it passed, its diagnostics. */
interface TapTest {
  readonly title: string;
  readonly ok: boolean;
  readonly diagnostics: string[];
}

interface FileRow {
  readonly file: string;
  readonly system: string;
  readonly pass: boolean;
  readonly state: string;
  readonly items: string;
  readonly profile: string;
  readonly warnings: string;
  readonly problems: readonly string[];
}

interface MenuRow {
  readonly file: string;
  readonly kind: string;
  readonly state: string;
  readonly right: number;
  readonly total: number;
  readonly secondsPerPage: number | null;
  readonly pass: boolean;
}

/** Drafted dishes of one kind of menu, split by whether they are right, and how many of each are in doubt. */
interface ConfidenceRow {
  readonly kind: string;
  readonly right: number;
  readonly wrong: number;
  /** Right and wrong dishes below each bar (LOW_BARS). */
  readonly low: Readonly<Record<string, { readonly right: number; readonly wrong: number }>>;
}

/**
 * Confidence bars reported: 0.5, and 0.8, below which the console lists a dish under "check first"
 * (console/src/draft/editor-context.ts LOW_CONFIDENCE).
 */
const LOW_BARS = [0.5, 0.8] as const;

/** What the confidence report reads of the corpus' own scorer (menus/score.mjs). */
interface Scorer {
  readonly NAME_SIMILARITY: number;
  similarity(a: string, b: string): number;
  pricesOf(doc: DraftDoc, item: DraftDocItem): number[];
  isVariable(item: DraftDocItem): boolean;
  findDraft(body: unknown): Promise<{ doc: DraftDoc } | null>;
}

interface DraftDocItem {
  readonly id: string;
  readonly name: string;
}

interface DraftDoc {
  readonly items: readonly DraftDocItem[];
}

interface TruthDish {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly number?: string | number;
  readonly prices: readonly number[];
}

interface Truth {
  readonly kind: string;
  readonly scored_pages?: readonly number[];
  readonly dishes: readonly TruthDish[];
}

const PROJECT = resolve(import.meta.dirname, '..');
const CORPUS = resolve(process.env.CORPUS_DIR ?? join(PROJECT, '..', 'shared', 'corpus'));
const TEST_FILES: Readonly<Record<Part, string>> = {
  files: join(CORPUS, 'files', 'files.test.mjs'),
  menus: join(CORPUS, 'menus', 'menus.test.mjs'),
};

/**
 * The leaf tests of a `node --test --test-reporter=tap` run. A test's diagnostics are the `# …` lines printed
 * at its own indentation after its `ok`/`not ok` line (node's TAP reporter writes them there).
 */
export const parseTap = (tap: string): TapTest[] => {
  const tests: TapTest[] = [];
  const lines = tap.split('\n');
  let current: { test: TapTest; indent: number } | null = null;
  let inYaml = false;
  for (const line of lines) {
    const indent = line.length - line.trimStart().length;
    const text = line.trim();
    if (text === '---') {
      inYaml = true;
      continue;
    }
    if (inYaml) {
      if (text === '...') inYaml = false;
      continue;
    }
    const result = /^(not ok|ok) \d+ - (.*)$/.exec(text);
    if (result) {
      const test: TapTest = { title: result[2] ?? '', ok: result[1] === 'ok', diagnostics: [] };
      tests.push(test);
      current = { test, indent };
      continue;
    }
    if (current && indent === current.indent && text.startsWith('# ') && !text.startsWith('# Subtest:'))
      current.test.diagnostics.push(text.slice(2));
  }
  return tests;
};

const fileRow = (test: TapTest): FileRow => {
  const [file = test.title, system = ''] = /^(\S+) \((.*)\)$/.exec(test.title)?.slice(1) ?? [];
  const summary = test.diagnostics.find((d) => d.startsWith(`${file}: `) && / in \d+ ms/.test(d)) ?? '';
  const state = /: (\w+) in \d+ ms/.exec(summary)?.[1] ?? '?';
  const items = /doc_items=(\d+)/.exec(summary)?.[1] ?? /items=(\d+)/.exec(summary)?.[1] ?? '-';
  const warnings = /warnings=(\S+)/.exec(summary)?.[1] ?? '-';
  const profiles = [...summary.matchAll(/"profile":"([^"]+)"/g)].map((m) => m[1]);
  const problems = test.diagnostics
    .filter((d) => d.startsWith(`${file}: ✗ `))
    .map((d) => d.slice(file.length + 4));
  return {
    file,
    system,
    pass: test.ok,
    state,
    items,
    profile: profiles.join(',') || '-',
    warnings,
    problems,
  };
};

const menuRow = (test: TapTest): MenuRow | null => {
  const head = /^(\S+) \(([^,]+),/.exec(test.title);
  if (!head) return null;
  const file = head[1] ?? '';
  const recall = test.diagnostics.map((d) => /: recall (\d+)\/(\d+)/.exec(d)).find((m) => m !== null);
  const timing = test.diagnostics
    .map((d) => /state=(\w+) in [\d.]+ s = ([\d.]+) s\/page/.exec(d))
    .find((m) => m);
  return {
    file,
    kind: head[2] ?? '',
    state: timing?.[1] ?? '?',
    right: Number(recall?.[1] ?? 0),
    total: Number(recall?.[2] ?? 0),
    secondsPerPage: timing ? Number(timing[2]) : null,
    pass: test.ok,
  };
};

/**
 * The drafted dishes of each kind of menu, right or wrong, with their confidence: from the operations API's
 * answers the menus test kept in `dir` (`<file>.ops-job.json`), on the pages the truth scores. A dish is
 * right when one of a truth dish's names (its name, aliases, and both after its menu number, as the menus
 * test takes them) is like its name (score.mjs's similarity) and it offers the truth dish's prices. Dishes
 * outside a transcribed subset of a menu count as wrong (the truth does not know them).
 */
export const confidenceRows = async (
  dir: string,
  truths: Readonly<Record<string, Truth>>,
  scorer: Scorer,
): Promise<ConfidenceRow[]> => {
  const rows = new Map<
    string,
    { right: number; wrong: number; low: Record<string, { right: number; wrong: number }> }
  >();
  for (const [file, truth] of Object.entries(truths)) {
    const path = join(dir, `${file}.ops-job.json`);
    if (!existsSync(path)) continue;
    const body = JSON.parse(readFileSync(path, 'utf8')) as {
      draft_provenance?: { item_id: string; page?: number; confidence?: number }[];
    };
    const doc = (await scorer.findDraft(body))?.doc;
    if (!doc) continue;
    const provenance = new Map((body.draft_provenance ?? []).map((p) => [p.item_id, p]));
    const pages = truth.scored_pages ? new Set(truth.scored_pages) : undefined;
    const names = truth.dishes.map((dish) => {
      const own = [dish.name, ...(dish.aliases ?? [])];
      return dish.number === undefined ? own : [...own, ...own.map((n) => `${dish.number} ${n}`)];
    });
    const row = rows.get(truth.kind) ?? { right: 0, wrong: 0, low: {} };
    for (const item of doc.items) {
      const seen = provenance.get(item.id);
      const page = seen?.page;
      if (pages && page !== undefined && !pages.has(page)) continue;
      const prices = scorer.pricesOf(doc, item);
      const right = truth.dishes.some(
        (dish, i) =>
          names[i]!.some((name) => scorer.similarity(item.name, name) >= scorer.NAME_SIMILARITY) &&
          (dish.prices.length === 0
            ? prices.length === 0 || scorer.isVariable(item)
            : dish.prices.every((p) => prices.includes(p))),
      );
      if (right) row.right++;
      else row.wrong++;
      for (const bar of LOW_BARS) {
        const low = row.low[String(bar)] ?? { right: 0, wrong: 0 };
        row.low[String(bar)] = low;
        if ((seen?.confidence ?? 1) < bar) low[right ? 'right' : 'wrong']++;
      }
    }
    rows.set(truth.kind, row);
  }
  return [...rows].map(([kind, row]) => ({ kind, ...row }));
};

/**
 * Runs one corpus test file with the TAP reporter, its output echoed to stderr as it comes (a long run);
 * `env` adds to the test's environment.
 */
const runPart = (part: Part, env: Readonly<Record<string, string>> = {}): Promise<string> =>
  new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=tap', TEST_FILES[part]], {
      cwd: PROJECT,
      env: { ...process.env, PROJECT_DIR: PROJECT, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      for (const line of chunk.toString().split('\n'))
        if (/^\s*(not ok|ok) \d+ - \S+\.\w+ /.test(line)) process.stderr.write(`${line.trim()}\n`);
    });
    child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    child.on('error', fail);
    child.on('close', () => done(out));
  });

const pct = (a: number, b: number): string => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(0)}%`);

const printFiles = (rows: readonly FileRow[]): void => {
  console.log('\n| file | system | result | state | items | profile | warnings | first problem |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const problem = r.problems[0] ?? '';
    const more = r.problems.length > 1 ? ` (+${r.problems.length - 1})` : '';
    console.log(
      `| ${r.file} | ${r.system} | ${r.pass ? 'pass' : 'FAIL'} | ${r.state} | ${r.items} | ${r.profile} | ${r.warnings} | ${problem.slice(0, 90)}${more} |`,
    );
  }
  console.log(`\nfiles: ${rows.filter((r) => r.pass).length}/${rows.length} pass`);
};

const printMenus = (rows: readonly MenuRow[]): void => {
  console.log('\n| menu | kind | state | recall | s/page |');
  console.log('|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.file} | ${r.kind} | ${r.state} | ${r.right}/${r.total} = ${pct(r.right, r.total)} | ${r.secondsPerPage?.toFixed(1) ?? '-'} |`,
    );
  const kinds = new Map<string, { right: number; total: number }>();
  for (const r of rows) {
    const k = kinds.get(r.kind) ?? { right: 0, total: 0 };
    kinds.set(r.kind, { right: k.right + r.right, total: k.total + r.total });
  }
  for (const [kind, k] of kinds) console.log(`${kind}: ${k.right}/${k.total} = ${pct(k.right, k.total)}`);
  const right = rows.reduce((n, r) => n + r.right, 0);
  const total = rows.reduce((n, r) => n + r.total, 0);
  console.log(
    `menus: ${right}/${total} dishes = ${pct(right, total)}; ${rows.filter((r) => r.pass).length}/${rows.length} in time`,
  );
};

const printConfidence = (rows: readonly ConfidenceRow[]): void => {
  console.log('\nconfidence (drafted dishes of the scored pages, right and wrong, below each bar):');
  for (const r of rows)
    console.log(
      `${r.kind}: ${r.right} right, ${r.wrong} wrong; ` +
        LOW_BARS.map((bar) => {
          const low = r.low[String(bar)] ?? { right: 0, wrong: 0 };
          return `< ${bar}: ${low.right}/${r.right} right (${pct(low.right, r.right)}), ${low.wrong}/${r.wrong} wrong (${pct(low.wrong, r.wrong)})`;
        }).join('; '),
    );
};

const main = async (): Promise<void> => {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  if (only !== undefined && only !== 'files' && only !== 'menus') {
    console.error(`--only=${only}: expected files or menus`);
    process.exitCode = 2;
    return;
  }
  const parts: Part[] = only === undefined ? ['files', 'menus'] : [only];
  const present = parts.filter((p) => existsSync(TEST_FILES[p]));
  if (present.length === 0) {
    console.log(`bench:corpus skipped: no corpus at ${CORPUS} (only the project's own checkout has one).`);
    return;
  }
  for (const p of parts)
    if (!present.includes(p)) console.error(`bench:corpus: ${TEST_FILES[p]} is absent, ${p} skipped`);
  const report: { files?: FileRow[]; menus?: MenuRow[]; confidence?: ConfidenceRow[] } = {};
  for (const part of present) {
    if (part === 'files') {
      const tests = parseTap(await runPart(part));
      report.files = tests.filter((t) => /^\S+ \(.*\)$/.test(t.title)).map(fileRow);
      continue;
    }
    // The menus test keeps each job's operations answer where WILD_OUT says (the caller's, else a scratch one).
    const own = process.env.WILD_OUT ? undefined : mkdtempSync(join(tmpdir(), 'bench-corpus-'));
    const out = process.env.WILD_OUT ?? own!;
    try {
      const tests = parseTap(await runPart(part, { WILD_OUT: out }));
      report.menus = tests.map(menuRow).filter((r): r is MenuRow => r !== null);
      const menus = join(CORPUS, 'menus');
      const scorer = (await import(pathToFileURL(join(menus, 'score.mjs')).href)) as Scorer;
      const truths = JSON.parse(readFileSync(join(menus, 'truth.json'), 'utf8')) as Record<string, Truth>;
      report.confidence = await confidenceRows(out, truths, scorer);
    } finally {
      if (own) rmSync(own, { recursive: true, force: true });
    }
  }
  if (json) {
    console.log(JSON.stringify(report, null, 1));
    return;
  }
  if (report.files) printFiles(report.files);
  if (report.menus) printMenus(report.menus);
  if (report.confidence) printConfidence(report.confidence);
};

await main();
