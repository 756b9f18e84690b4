// Quiet, deterministic test processes: the SDK's note about future Node versions and the services' logs
// are not what the tests are about.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
// `npm run test:future` runs the suite years ahead of the calendar: the sandbox's own Date moves too.
require('./clock-shift.cjs');
