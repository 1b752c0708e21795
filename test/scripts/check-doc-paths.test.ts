/**
 * Every path and link that the README, docs/ and code comments name is there (issue 22, item 6):
 * a file moved or a section renamed fails here until what points at it is changed too.
 */
import { describe, expect, it } from "vitest";
import { deadReferencesInComments, deadReferencesInDocs } from "../../scripts/check-doc-paths";

const listed = (dead: { file: string; line: number; reference: string }[]) =>
  dead.map((d) => `${d.file}:${d.line}: ${d.reference}`);

describe("references to the repository", () => {
  it("the README and docs/ name only paths, files and sections that exist", () => {
    expect(listed(deadReferencesInDocs())).toEqual([]);
  });

  it("code comments name only paths that exist", () => {
    expect(listed(deadReferencesInComments())).toEqual([]);
  });
});
