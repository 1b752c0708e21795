import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends a run with the ten slowest test files of each project (database), each with the time it
 * took in its worker: import, hooks and tests (docs/testing.md: the budget per file).
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const byProject = new Map<string, { file: string; ms: number }[]>();
    for (const module of testModules) {
      const d = module.diagnostic();
      const ms = d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
      const project = module.project.name || "tests";
      const files = byProject.get(project) ?? [];
      files.push({ file: module.relativeModuleId, ms });
      byProject.set(project, files);
    }
    const lines: string[] = [];
    for (const [project, files] of [...byProject].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`\nThe ten slowest files on ${project}:`);
      for (const { file, ms } of files.sort((a, b) => b.ms - a.ms).slice(0, 10)) {
        lines.push(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`);
      }
    }
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}
