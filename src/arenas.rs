//! Two malloc arenas for the whole process, set by both binaries' `main` before any thread
//! starts (the libraries forbid unsafe code, so the call lives here, included by path).
//!
//! glibc gives each busy thread an arena of its own (up to eight a core) and reserves 64 MiB
//! of address space for each. Memory freed in one arena is not reused by another, so a
//! server's concurrent checks would hold more resident memory than they use; and an
//! address-space limit (`ulimit -v`, `prlimit --as`) counts the reservations as if they were
//! used, so a batch's workers would reach a 256 MB limit with less than half of it in use.
//! Two arenas keep the workers' contention low, the freed memory shared and the reservation
//! small.

/// Caps the allocator at two arenas (glibc on Linux; elsewhere nothing to do).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn few_arenas() {
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

/// Caps the allocator at two arenas (glibc on Linux; elsewhere nothing to do).
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn few_arenas() {}
