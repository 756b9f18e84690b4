// Jest reads `testTimeout` from the global configuration only (a project's own is ignored), so the projects
// whose tests talk to emulators or child processes set theirs here, through setupFilesAfterEnv.
jest.setTimeout(30_000);
