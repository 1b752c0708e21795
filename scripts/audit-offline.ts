/**
 * `npm run audit:offline`: every package in package-lock.json checked against the committed
 * advisory snapshot (security/advisories.json), offline. A match not accepted, with a reason, in
 * security/accepted.json fails (exit 1); an accepted entry that no longer matches is reported so
 * it can be removed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";

interface Advisory {
  id: string;
  aliases?: string[];
  package: string;
  range: string;
  severity: string;
  summary: string;
  fixed?: string;
}
interface Accepted {
  id: string;
  package: string;
  version: string;
  reason: string;
}
export interface Finding {
  advisory: Advisory;
  version: string;
  paths: string[];
  accepted: Accepted | undefined;
}

/** Installed versions by package name, with where each is installed. */
export function installedPackages(lockfile: {
  packages: Record<string, { version?: string }>;
}): Map<string, Map<string, string[]>> {
  const installed = new Map<string, Map<string, string[]>>();
  for (const [path, entry] of Object.entries(lockfile.packages)) {
    if (!path || !entry.version) continue;
    const name = path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
    const versions = installed.get(name) ?? new Map<string, string[]>();
    versions.set(entry.version, [...(versions.get(entry.version) ?? []), path]);
    installed.set(name, versions);
  }
  return installed;
}

export function audit(
  lockfile: { packages: Record<string, { version?: string }> },
  advisories: Advisory[],
  accepted: Accepted[],
): Finding[] {
  const installed = installedPackages(lockfile);
  const findings: Finding[] = [];
  for (const advisory of advisories) {
    for (const [version, paths] of installed.get(advisory.package) ?? []) {
      if (!semver.satisfies(version, advisory.range, { includePrerelease: true })) continue;
      findings.push({
        advisory,
        version,
        paths,
        accepted: accepted.find(
          (a) => a.id === advisory.id && a.package === advisory.package && a.version === version,
        ),
      });
    }
  }
  return findings;
}

function main(root: string): number {
  const read = (file: string) => JSON.parse(readFileSync(join(root, file), "utf8"));
  const { advisories, updated } = read("security/advisories.json") as {
    advisories: Advisory[];
    updated: string;
  };
  const { accepted } = read("security/accepted.json") as { accepted: Accepted[] };
  const findings = audit(read("package-lock.json"), advisories, accepted);
  const open = findings.filter((f) => !f.accepted);
  for (const f of findings) {
    const names = [f.advisory.id, ...(f.advisory.aliases ?? [])].join(", ");
    const state = f.accepted ? "accepted" : "OPEN";
    console.log(
      `${state}: ${f.advisory.package}@${f.version} (${names}, ${f.advisory.severity}): ${f.advisory.summary}; fixed in ${f.advisory.fixed ?? "no release"}`,
    );
    if (f.accepted) console.log(`  why: ${f.accepted.reason}`);
  }
  for (const a of accepted) {
    if (!findings.some((f) => f.accepted === a)) {
      console.log(`stale: ${a.id} for ${a.package}@${a.version} no longer matches; remove it`);
    }
  }
  console.log(
    `${advisories.length} advisories (snapshot of ${updated}) checked; ${open.length} open, ${findings.length - open.length} accepted.`,
  );
  return open.length > 0 ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit(main(join(import.meta.dirname, "..")));
}
