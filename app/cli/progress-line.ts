import type { SyncProgress } from "../sync/engine/sync-export.server";

const PHASES: Record<SyncProgress["phase"], string> = {
  request: "exporting from Shopify",
  export: "reading export",
  plan: "planning",
  send: "sending",
  clean: "cleaning up",
  done: "done",
};

/** One redrawn terminal line: bar, items done of total, phase, rate. */
export class ProgressLine {
  private phase: string | undefined;
  private phaseStarted = Date.now();

  constructor(private readonly out: { write(text: string): unknown }) {}

  update({ phase, done, total }: SyncProgress): void {
    if (phase !== this.phase) {
      this.phase = phase;
      this.phaseStarted = Date.now();
    }
    const width = 30;
    const ratio = total > 0 ? Math.min(1, done / total) : 1;
    const filled = Math.round(ratio * width);
    const seconds = Math.max(0.001, (Date.now() - this.phaseStarted) / 1000);
    const rate = Math.round(done / seconds);
    this.out.write(
      `\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} ${PHASES[phase]} ${rate}/s   `,
    );
  }

  end(): void {
    if (this.phase) this.out.write(`\r${" ".repeat(80)}\r`);
  }
}
