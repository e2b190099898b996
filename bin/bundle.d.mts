// Types of bin/bundle.mjs (plain JavaScript, so that bin/gpumm.js runs without a TypeScript loader).
export declare const BUNDLE_DIR: string;
export declare const BUNDLE_MAIN: string;
export declare const BUNDLE_MANIFEST: string;
export declare function freshBundle(root: string): string | null;
export declare const WEB_DIR: string;
export declare const WEB_MAIN: string;
export declare const WEB_MANIFEST: string;
export declare function freshBuild(root: string, manifestPath: string, main: string): string | null;
