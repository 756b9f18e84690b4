import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Annotations, Duration, Size, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { BUNDLE } from './bundling';
import type { FunctionDefinition, Packaging } from './functions';

/**
 * NodejsFunction options that install `packaging.nodeModules` into the asset for the Lambda's platform
 * (npm reads npm_config_os/cpu/libc from the environment of the install) and then delete the files the
 * function never loads. The install (`npm ci` in the asset, versions from package-lock.json) takes every
 * tarball npm's cache holds without asking the registry (`prefer-offline`): after the project's own `npm ci`
 * the cache holds them all but the native binaries of another platform (`@napi-rs/canvas-linux-arm64-gnu`
 * on an x64 machine), which `npm cache add` puts there once (docs/deploying.md); no audit, no funding call.
 */
export const packagingOptions = (packaging: Packaging) => ({
  nodeModules: [...packaging.nodeModules],
  environment: {
    npm_config_os: packaging.platform.os,
    npm_config_cpu: packaging.platform.cpu,
    npm_config_libc: packaging.platform.libc,
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    // Prebuilt binaries come in the packages themselves; an install script would fetch more (onnxruntime-node:
    // GPU builds) or fail offline.
    npm_config_ignore_scripts: 'true',
  },
  commandHooks: {
    beforeBundling: (): string[] => [],
    beforeInstall: (): string[] => [],
    afterBundling: (_input: string, output: string): string[] => [
      ...packaging.platformPackages.map(
        (name) =>
          `test -f "${output}/node_modules/${name}/package.json" || { echo "${name} was not installed into ` +
          `the asset (npm skips an optional package it cannot fetch): run npm cache add ${name}@<its version ` +
          `in package-lock.json> once while online (docs/deploying.md)" >&2; exit 1; }`,
      ),
      `cd "${output}/node_modules" && rm -rf ${packaging.prune.join(' ')}`,
    ],
  },
});

export interface ServiceFunctionProps {
  readonly definition: FunctionDefinition;
  readonly projectRoot: string;
  readonly environment: Record<string, string>;
  readonly logRetention: logs.RetentionDays;
  /** Customer-managed policy with the X-Ray write actions (which support no resource scoping). */
  readonly tracingPolicy: iam.IManagedPolicy;
}

/**
 * One service Lambda: NodejsFunction bundled from its handler file (ESM, minified, SDK bundled), Node 24 on
 * ARM64, active tracing, its own log group, and its own role that starts with no permissions at all: only
 * its log group, X-Ray, and whatever the stack grants it afterwards.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const { definition } = props;

    this.logGroup = new logs.LogGroup(this, 'LogGroup', { retention: props.logRetention });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs the ${definition.name} function; see lib/aws/functions.ts for what it may touch.`,
      managedPolicies: [props.tracingPolicy],
    });
    // Instead of AWSLambdaBasicExecutionRole (any log group of the account): this function's group only.
    this.logGroup.grantWrite(this.role);

    const entry = join(props.projectRoot, definition.entry);
    const placeholder = !existsSync(entry) && !Stack.of(this).bundlingRequired;
    if (placeholder) {
      // Only when this stack is not being bundled (tests, `cdk synth --exclusively` of the other stack):
      // a handler another change has not written yet must not stop the rest of the template from synthesising.
      Annotations.of(this).addWarningV2(
        'catalog-jobs:missing-handler',
        `${definition.entry} does not exist yet; a placeholder is synthesised because bundling is skipped.`,
      );
    }

    this.function = new NodejsFunction(this, 'Function', {
      description: `catalog-jobs ${definition.kind}: ${definition.name}`,
      ...(placeholder
        ? {
            code: lambda.Code.fromInline(
              'export const handler = async () => { throw new Error("placeholder"); };',
            ),
            handler: 'index.handler',
          }
        : { entry, handler: 'handler' }),
      projectRoot: props.projectRoot,
      depsLockFilePath: join(props.projectRoot, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: definition.memoryMb,
      timeout: Duration.seconds(definition.timeoutSeconds),
      role: this.role,
      logGroup: this.logGroup,
      tracing: lambda.Tracing.DISABLED,
      environment: props.environment,
      ephemeralStorageSize: Size.mebibytes(definition.ephemeralStorageMb),
      bundling: {
        ...(definition.packaging ? packagingOptions(definition.packaging) : {}),
        target: BUNDLE.target,
        format: OutputFormat.CJS,
        mainFields: [...BUNDLE.mainFields],
        minify: BUNDLE.minify,
        keepNames: BUNDLE.keepNames,
        sourceMap: BUNDLE.sourceMap,
        sourceMapMode: SourceMapMode.DEFAULT,
        sourcesContent: BUNDLE.sourcesContent,
        externalModules: [...BUNDLE.externalModules, ...(definition.packaging?.nodeModules ?? [])],
      },
    });
    // Active tracing set on the resource directly: `tracing: ACTIVE` would also add X-Ray actions on "*" to
    // this role's inline policy, where they would need a suppression per role. The shared tracingPolicy
    // carries them once instead.
    (this.function.node.defaultChild as lambda.CfnFunction).tracingConfig = { mode: 'Active' };
  }
}
