// Types of node-runtime.mjs, for the TypeScript side of the launcher and the tests.
export declare const NODE_MAJOR: number;
export declare const NODE_VERSION: string;
export declare const NODE_INTEGRITY: string;
export declare class NodeRuntimeError extends Error {}
export declare function cacheDir(): string;
export declare function majorOf(version: string): number;
export declare function cachedNodePath(): string;
export declare function provideNode(
  log: (line: string) => void,
  current?: { version: string; execPath: string },
): string;
export declare function environmentFor(node: string, env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export declare function provideNodeWithProgress(
  log: (line: string) => void,
  current?: { version: string; execPath: string },
): Promise<string>;
