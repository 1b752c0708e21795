import type { BuildResult } from "esbuild";

/** Bundles `entryPoints` into `outdir` as `npm run build` bundles the commands. */
export declare function bundleForNode(entryPoints: string[], outdir: string): Promise<BuildResult>;
