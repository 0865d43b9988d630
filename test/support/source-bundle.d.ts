// Types of source-bundle.js (plain JavaScript, since jest's globalSetup reads it).
export declare const BUNDLE_DIR: string;
export declare const ENTRIES: Record<string, string>;
export declare function sourceBundle(): Promise<string>;
export declare function bundledEntry(dir: string, source: string): string | undefined;
