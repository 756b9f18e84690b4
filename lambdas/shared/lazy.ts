/**
 * Defers building a handler (and its AWS clients) to the first invocation, so that importing a handler
 * module never reads the environment: tests import the factory, Lambda and the local runtime the handler.
 */
export const lazy = <H extends (...args: never[]) => unknown>(build: () => H): H => {
  let built: H | undefined;
  return ((...args: Parameters<H>) => {
    built ??= build();
    return built(...args);
  }) as H;
};
