import { execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { freePort } from "./free-port";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A throwaway PostgreSQL cluster from Debian's `postgresql` package: initdb in a temporary
 * folder, started on a free loopback port with its socket in that folder, trust auth, removed by
 * `stop()`. initdb and postgres refuse to run as root, so as root they run as `postgres`.
 */
export interface PostgresCluster {
  /** A superuser URL of the cluster's `postgres` database. */
  url: string;
  stop(): Promise<void>;
}

export function postgresBinDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], "bin") : undefined;
}

/**
 * `durable`: fsync on, as a production server runs (for benchmarks of commits); tests run with
 * fsync off, which is faster and loses nothing unless the machine itself crashes.
 */
export async function startPostgresCluster(
  options: { durable?: boolean } = {},
): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed: apt-get install -y postgresql");
  const dir = mkdtempSync(join(tmpdir(), "catalog-chat-pg-"));
  const data = join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot ? userIds("postgres") : undefined;
  if (ids) chownSync(dir, ids.uid, ids.gid);
  // As root, every PostgreSQL program runs as `postgres`.
  const asOwner = (file: string, args: string[]): [string, string[]] =>
    ids
      ? ["setpriv", [`--reuid=${ids.uid}`, `--regid=${ids.gid}`, "--init-groups", file, ...args]]
      : [file, args];
  const run = (file: string, args: string[]) =>
    execFileSync(...asOwner(file, args), { stdio: "pipe" });

  run(join(bin, "initdb"), [
    "-D",
    data,
    "-U",
    "postgres",
    "--auth=trust",
    "-E",
    "UTF8",
    "--no-sync",
  ]);
  const port = await freePort();
  const settings = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=${options.durable ? "on" : "off"} -c max_connections=200`;
  run(join(bin, "pg_ctl"), ["-D", data, "-o", settings, "-w", "-l", join(dir, "log"), "start"]);

  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await new Promise<void>((resolve) => {
        const [file, args] = asOwner(join(bin, "pg_ctl"), [
          "-D",
          data,
          "-m",
          "immediate",
          "-w",
          "stop",
        ]);
        const child = spawn(file, args, { stdio: "ignore" });
        child.on("exit", () => resolve());
        child.on("error", () => resolve());
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function userIds(name: string): { uid: number; gid: number } {
  const uid = Number(execFileSync("id", ["-u", name]).toString().trim());
  const gid = Number(execFileSync("id", ["-g", name]).toString().trim());
  return { uid, gid };
}
