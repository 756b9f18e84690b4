// Moves this process's wall clock to TEST_CLOCK_AT (an ISO date) and lets it run on from there, so that the
// suite can be run years ahead of the calendar (`npm run test:future`): a test that mixes a fixed date with the
// real clock fails the day it is written instead of the day the calendar passes its date.
//
// Loaded twice: through NODE_OPTIONS (`--require`) in every Node process the tests start (jest, its workers,
// `npm start` and the emulators), and by jest's setupFiles inside each test's sandbox, whose `Date` is a
// builtin of its own. The first process turns TEST_CLOCK_AT into an offset from the real clock and passes it on
// (TEST_CLOCK_OFFSET_MS), so that every process started later reads the same clock, not one that starts at
// TEST_CLOCK_AT when it starts. Only `Date` moves: timers, `performance.now()` and `process.hrtime()` are untouched, so
// time-outs and polling behave as always. A process that already runs shifted is not shifted twice.
'use strict';

const shift = (global) => {
  const at = process.env.TEST_CLOCK_AT;
  if (!at) return;
  const RealDate = global.Date;
  if (RealDate.__clockShift !== undefined) return;
  const given = process.env.TEST_CLOCK_OFFSET_MS;
  let offset = given ? Number(given) : Number.NaN;
  if (!Number.isFinite(offset)) {
    const target = RealDate.parse(at);
    if (Number.isNaN(target)) throw new Error(`TEST_CLOCK_AT is not a date: ${at}`);
    offset = target - RealDate.now();
    process.env.TEST_CLOCK_OFFSET_MS = String(offset);
  }
  const now = () => RealDate.now() + offset;
  function ShiftedDate(...args) {
    if (!new.target) return new RealDate(now()).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [now()] : args, new.target);
  }
  Object.setPrototypeOf(ShiftedDate, RealDate);
  ShiftedDate.prototype = RealDate.prototype;
  ShiftedDate.now = now;
  ShiftedDate.parse = RealDate.parse;
  ShiftedDate.UTC = RealDate.UTC;
  ShiftedDate.__clockShift = offset;
  global.Date = ShiftedDate;
};

shift(globalThis);
module.exports = { shift };
