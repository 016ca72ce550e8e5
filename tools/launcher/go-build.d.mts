// Types of go-build.mjs, for the TypeScript side of the launcher and the tests.
export declare const TEMPORAL_CLI_VERSION: string;
export declare const TEMPORAL_CLI_MODULE: string;
export declare const GO_BUILD_SCRIPT: string;
export declare function cachedTemporalCliPath(): string;
export declare function works(path: string): boolean;
export declare function goAvailable(): boolean;
export declare function existingTemporalCli(env?: NodeJS.ProcessEnv): string | undefined;
export declare function goInstall(
  bin: string,
  packages: string[],
  what: string,
  log: (line: string) => void,
  expected?: number,
): Promise<{ status: number; tail: string[] }>;
export declare function buildTemporalCli(log: (line: string) => void): Promise<{ status: number; tail: string[] }>;
export declare function goBuildFailure(packages: string[], instead: string): string;
export declare const TEMPORAL_CLI_INSTEAD: string;
