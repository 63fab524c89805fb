import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

// The base binary the bench compares this tree against: the `kasa` a given commit builds. It is
// built in a detached worktree under the OS temp directory, because the main working tree may hold
// someone's uncommitted work and must never be checked out, stashed or reset for a benchmark.

export type Base = { ref: string; sha: string; short: string; binary: string };

/** Where built base binaries are kept, one per commit; ignored by git (test/bench/.gitignore). */
// Under /bench/ (git-ignored, not a source folder), beside the runs and results.json.
const CACHE_DIR = join("bench", "base-binaries");

function git(args: string[], cwd = process.cwd()): string {
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr.trim() || r.stdout.trim()}`);
  return r.stdout.trim();
}

/** The commit `ref` names; `^{commit}` so a tag or a typo is refused here, not by the worktree. */
export function resolveRef(ref: string): { sha: string; short: string } {
  const r = spawnSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`--base ${ref}: not a commit of this repository (git rev-parse found none)`);
  const sha = r.stdout.trim();
  return { sha, short: git(["rev-parse", "--short", sha]) };
}

/** Removes the worktree even when the build failed half-way, then forgets it in git's bookkeeping. */
function removeWorktree(tree: string, tmp: string): void {
  const r = spawnSync("git", ["worktree", "remove", "--force", tree], { encoding: "utf8" });
  if (r.status !== 0 && existsSync(tree)) process.stderr.write(`[bench] git worktree remove ${tree}: ${r.stderr.trim()}\n`);
  rmSync(tmp, { recursive: true, force: true });
  spawnSync("git", ["worktree", "prune"], { encoding: "utf8" });
}

/**
 * Builds `sha` with that commit's own `npm run build` (its build flags may differ from this
 * tree's), borrowing this tree's node_modules through a symlink rather than installing anew.
 */
function build(sha: string, out: string): void {
  const tmp = mkdtempSync(join(tmpdir(), "kasa-bench-base-"));
  const tree = join(tmp, "tree");
  try {
    git(["worktree", "add", "--detach", tree, sha]);
    symlinkSync(resolve("node_modules"), join(tree, "node_modules"), "dir");
    process.stderr.write(`[bench] building the base binary (${sha.slice(0, 12)}) in ${tree}\n`);
    const r = spawnSync("npm", ["run", "build"], { cwd: tree, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`npm run build of the base ${sha} failed:\n${r.stdout}\n${r.stderr}`);
    const built = join(tree, "dist", "kasa");
    if (!existsSync(built)) throw new Error(`npm run build of the base ${sha} wrote no dist/kasa`);
    // Copied under a temporary name and renamed, so an interrupted run never leaves a torn binary
    // in the cache for the next run to trust.
    const partial = `${out}.partial-${process.pid}`;
    copyFileSync(built, partial);
    chmodSync(partial, 0o755);
    renameSync(partial, out);
  } finally {
    removeWorktree(tree, tmp);
  }
}

/** The base binary for `ref`, built once per commit and reused from the cache afterwards. */
export function baseBinary(ref: string): Base {
  const { sha, short } = resolveRef(ref);
  mkdirSync(CACHE_DIR, { recursive: true });
  const binary = resolve(CACHE_DIR, `kasa-${sha}`);
  if (existsSync(binary)) process.stderr.write(`[bench] base binary ${short} from ${binary}\n`);
  else build(sha, binary);
  return { ref, sha, short, binary };
}
