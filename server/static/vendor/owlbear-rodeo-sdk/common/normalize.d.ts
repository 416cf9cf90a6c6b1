export declare function normalizeUrl(url: string): string;
/**
 * Normalize icon paths so that relative paths are transformed into absolute paths
 */
export declare function normalizeIconPaths<T extends {
    icon: string;
}>(icons: T[]): T[];
/**
 * Normalize an object with a url property so that relative paths are transformed into absolute paths
 */
export declare function normalizeUrlObject<T extends {
    url: string;
}>(urlObject: T): T;
