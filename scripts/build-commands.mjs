/**
 * The second half of `npm run build` (after Remix's): the app's commands in app/cli bundled for
 * plain `node` into build/cli/, so that `npm start`, `npm run worker`, `npm run sync` and
 * `npm run secrets:reencrypt` load no TypeScript loader (docs/decisions/0058). Packages stay
 * outside the bundle, resolved from node_modules as before; the app's own modules are bundled,
 * and those a command imports lazily become chunks it still loads only when it needs them.
 * build/cli/ is two folders deep, as app/cli/ is: the paths the app finds from its own files
 * (the project root, prisma/) are the same from either.
 */
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const COMMANDS = ["serve", "worker", "sync", "reencrypt-secrets"];

/** Bundles `entryPoints` into `outdir` as `npm run build` bundles the commands. */
export function bundleForNode(entryPoints, outdir) {
  return build({
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node22",
    packages: "external",
    logLevel: "warning",
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const outdir = join(root, "build", "cli");
  // The chunks' names change with their content: no chunk of an earlier build is left behind.
  rmSync(outdir, { recursive: true, force: true });
  await bundleForNode(
    COMMANDS.map((name) => join(root, "app", "cli", `${name}.ts`)),
    outdir,
  );
}
