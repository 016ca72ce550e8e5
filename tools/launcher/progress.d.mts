// Types of progress.mjs, for the TypeScript side of the launcher and the tests.
export declare const PROGRESS_SCRIPT: string;
export declare const PROGRESS_INTERVAL_MS: number;
export declare function elapsed(ms: number): string;
export declare function reportProgress(
  label: string,
  detail: () => string,
  log: (line: string) => void,
  interval?: number,
): (outcome?: string) => void;
export declare function runStep(
  command: string,
  args: string[],
  options: {
    label: string;
    detail?: () => string;
    onLine?: (line: string) => void;
    log: (line: string) => void;
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    quiet?: boolean;
  },
): Promise<{ status: number; tail: string[] }>;
