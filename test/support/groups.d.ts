// Types of groups.js (plain JavaScript, since jest.config.js reads it too).
export declare const ROOT: string;
export declare const GROUPS_DIR: string;
export declare const RUN_ALONE: string[];
export declare function specFiles(): string[];
export declare function groupCount(): number;
export declare function groups(count?: number): string[][];
export declare function topLevelCall(source: string): string | undefined;
export declare function importGroup(groupFileUrl: string): Promise<void>;
