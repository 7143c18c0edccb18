//! The `pith` command-line tool: a thin layer over the library (see `pith --help`).
use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
    few_arenas();
    cli::main()
}

/// What a run holds is bounded by the budget, in bytes in use; glibc's allocator also reserves
/// address space for each thread arena (64 MiB, up to eight arenas a core), which an
/// address-space limit (`ulimit -v`, `prlimit --as`) counts as if it were used. A batch's
/// workers would then reach a 256 MB limit with less than half of it in use. Two arenas keep
/// the workers' contention low and the reservation small.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn few_arenas() {
    extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    /// glibc's `M_ARENA_MAX` (malloc.h).
    const M_ARENA_MAX: i32 = -8;
    // SAFETY: mallopt sets one parameter of the allocator and is called before any thread of
    // this process starts; glibc documents it as safe to call at any time.
    unsafe {
        mallopt(M_ARENA_MAX, 2);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn few_arenas() {}
