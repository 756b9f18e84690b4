import { isLambdaInit } from './config';

/**
 * Builds a handler (its configuration and its AWS clients) once. In Lambda that happens at module scope, in
 * the init phase, before the first request (one client per service, created with the function's container,
 * as the SDK's guidance has it); elsewhere on the first call, so that importing a handler module never reads
 * the environment: tests import the factory, and the local runtime sets the environment before its first call.
 */
export const lazy = <H extends (...args: never[]) => unknown>(build: () => H): H => {
  let built: H | undefined = isLambdaInit() ? build() : undefined;
  return ((...args: Parameters<H>) => {
    built ??= build();
    return built(...args);
  }) as H;
};
