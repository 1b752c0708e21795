import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * The newest modification time of a file under `dir`: a build older than it predates a change
 * (the demo builds again; the tests of the bundled commands refuse to run).
 */
export function newestChangeUnder(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}
