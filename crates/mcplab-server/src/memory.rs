//! Giving memory back to the system after a flood (DESIGN.md §6: a hostile server cannot keep
//! mcplab's memory up after it is gone). Every buffer a server can fill is bounded and freed on
//! disconnect and on a traffic clear, but glibc's allocator keeps freed memory for reuse: its
//! mmap threshold rises to the largest block freed (a 1 MB notification moves megabyte blocks
//! into the heap, where they stay), and freed heap pages are returned only from the top.
//! [`tune`] pins the threshold so large blocks are mapped and unmapped on their own;
//! [`release`] hands free heap pages back after a disconnect or a clear. Both do nothing on
//! other C libraries. Owns no state.

/// Blocks at least this large get their own mapping (glibc's default before it adapts).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 128 * 1024;

/// Call once at start, before the runtime allocates much.
#[allow(unsafe_code)] // FFI to the C library's allocator; one of the three unsafe blocks of the workspace
pub fn tune() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator parameters; any value is accepted or refused
    // by its return code, which needs no handling (the default stays in force).
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}

/// Returns free heap memory to the system (after a server's buffers were dropped). The trim
/// walks the whole heap, so it runs on the blocking pool, not on an async worker; outside a
/// runtime it runs here.
pub fn release() {
    match tokio::runtime::Handle::try_current() {
        Ok(rt) => drop(rt.spawn_blocking(trim)),
        Err(_) => trim(),
    }
}

#[allow(unsafe_code)] // FFI to the C library's allocator
fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free pages; it touches no live allocation.
    unsafe {
        libc::malloc_trim(0);
    }
}
