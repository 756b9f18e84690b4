// Tests run as CommonJS through swc; ESM-only dependencies (middy) are transformed too.
const transform = {
  // pdf.js as unpdf ships it is an ES module (.mjs): compiled like the rest for the CommonJS test runtime.
  '^.+/unpdf/dist/pdfjs\\.mjs$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } },
  ],
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
  ],
};
const common = {
  transform,
  transformIgnorePatterns: ['/node_modules/(?!(@middy|unpdf)/)'],
  testEnvironment: '<rootDir>/test/helpers/node-environment.cjs',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  setupFiles: ['<rootDir>/test/helpers/jest-env.ts'],
};

export default {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/helpers/emulators-global-setup.ts',
      globalTeardown: '<rootDir>/test/helpers/emulators-global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/helpers/timeout-30s.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
      // Unpacks the headless Chromium of the browser tests (once per npm ci).
      globalSetup: '<rootDir>/test/helpers/chromium-global-setup.ts',
      setupFilesAfterEnv: ['<rootDir>/test/helpers/timeout-60s.ts'],
    },
    { ...common, displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
  ],
};
