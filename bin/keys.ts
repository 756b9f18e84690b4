/**
 * `npm run keys -- <command>`: manage clients, API keys and webhook secrets (SPEC 2). See KEYS_USAGE
 * (lib/admin/keys-command.ts) or `npm run keys -- --help`.
 *
 *   create --client <id> [--scope client|operator]   prints {"client_id","scope","api_key","webhook_secret"}
 *   list [--client <id>]                             one JSON object per key (never the key itself)
 *   revoke <key_id | api_key>                        takes effect at once locally, within 60 s in AWS
 *   rotate-webhook-secret --client <id>              new secret; the previous one signs for 24 h more
 *   sync                                             re-attaches every client's usage key to the usage plan
 *
 * Target: the running local stack (`npm start` writes .local/runtime.json), or a deployed stack when
 * `--outputs cdk-outputs.json` is given or TABLE_NAME is set; its region as the AWS CLI resolves it.
 */
import { runKeys } from '../lib/admin/keys-command';
import { DEFAULT_STATE_FILE } from '../lib/local/runtime';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

process.exitCode = await runKeys(process.argv.slice(2), {
  env: process.env,
  io: { out: (line) => console.log(line), err: (line) => console.error(line) },
  localStateFile: DEFAULT_STATE_FILE,
});
