import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { audit } from "../../scripts/audit-offline";

const ROOT = join(import.meta.dirname, "..", "..");
const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), "utf8"));
const turboStream = {
  id: "GHSA-rxv8-25v2-qmq8",
  package: "turbo-stream",
  range: "<3.0.0",
  severity: "high",
  summary: "DoS",
};
const lockWith = (version: string) => ({
  packages: {
    "": {},
    "node_modules/turbo-stream": { version },
    "node_modules/@remix-run/react/node_modules/turbo-stream": { version: "2.4.1" },
  },
});

describe("npm run audit:offline", () => {
  it("finds an installed version inside an advisory's range, wherever it is installed", () => {
    const findings = audit(lockWith("2.4.1"), [turboStream], []);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ version: "2.4.1", accepted: undefined });
    expect(findings[0]!.paths).toHaveLength(2);
  });

  it("passes a fixed version, and accepts a match only for the version accepted", () => {
    const accepted = [
      { id: turboStream.id, package: "turbo-stream", version: "2.4.0", reason: "x" },
    ];
    expect(
      audit({ packages: { "node_modules/turbo-stream": { version: "3.0.0" } } }, [turboStream], []),
    ).toEqual([]);
    expect(audit(lockWith("2.4.1"), [turboStream], accepted)[0]!.accepted).toBeUndefined();
  });

  it("the project's lockfile has no open advisory in the committed snapshot", () => {
    const { advisories } = read("security/advisories.json");
    const { accepted } = read("security/accepted.json");
    const findings = audit(read("package-lock.json"), advisories, accepted);
    expect(findings.filter((f) => !f.accepted)).toEqual([]);
    // turbo-stream 2.4.1 (CVE-2026-34077) is installed, and accepted with its reason.
    expect(findings.map((f) => `${f.advisory.package}@${f.version}`)).toContain(
      "turbo-stream@2.4.1",
    );
  });
});
