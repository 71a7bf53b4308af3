//! Records the git commit the engine is built from, when it is built from a checkout, so
//! that a benchmark can say which code it timed (`ECARTE_GIT_COMMIT`, and
//! `ECARTE_GIT_DIRTY` when tracked files differ from it). Outside a checkout, or without
//! git, nothing is recorded and the build goes on.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=rust/src");
    println!("cargo:rerun-if-changed=Cargo.toml");
    // Only a checkout of this package: not a copy unpacked inside some other repository.
    let here = std::env::var("CARGO_MANIFEST_DIR")
        .ok()
        .and_then(|d| Path::new(&d).canonicalize().ok());
    let top =
        git(&["rev-parse", "--show-toplevel"]).and_then(|d| Path::new(&d).canonicalize().ok());
    if here.is_none() || here != top {
        return;
    }
    let Some(commit) = git(&["rev-parse", "HEAD"]).filter(|c| !c.is_empty()) else {
        return;
    };
    // A new commit moves HEAD's log; a checkout moves HEAD.
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        for file in ["HEAD", "logs/HEAD"] {
            let path = Path::new(&dir).join(file);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    println!("cargo:rustc-env=ECARTE_GIT_COMMIT={commit}");
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
        .is_some_and(|changes| !changes.is_empty());
    println!("cargo:rustc-env=ECARTE_GIT_DIRTY={}", u8::from(dirty));
}
