import { BUNDLE } from '../aws/bundling';

/** The Node.js major of the Lambda runtime (the bundles' esbuild target): the local runtime runs on it too. */
export const LAMBDA_NODE_MAJOR = Number(BUNDLE.target.replace(/^node/, ''));

export const runningNodeMajor = (): number => Number(process.versions.node.split('.')[0]);

/**
 * Why this process cannot run the local service, or undefined when it can. npm scripts run on the Node.js
 * that `npm ci` installs (the `node` devDependency, first on an npm script's PATH); another Node.js means the
 * command was started some other way.
 */
export const nodeVersionProblem = (): string | undefined =>
  runningNodeMajor() === LAMBDA_NODE_MAJOR
    ? undefined
    : `This is Node.js ${process.version}; the service runs on Node.js ${LAMBDA_NODE_MAJOR}, like Lambda. ` +
      'Start it through npm (npm start, npm run ...), which uses the Node.js that npm ci installed in node_modules.';
