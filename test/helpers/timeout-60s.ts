// See timeout-30s.ts: the e2e project starts `npm start` and browsers, which take longer.
jest.setTimeout(60_000);
