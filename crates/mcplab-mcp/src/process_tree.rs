//! Descendants of a stdio server that leave its process group. Killing the group stops a
//! server and the helpers it forked, but a grandchild that called `setsid` has a group of its
//! own and would survive. So each server's process tree is tracked (Linux: by reading
//! `/proc/*/stat`): at every refresh, the live processes reachable from the server by parent
//! links, plus those seen before that are still alive, are remembered (by pid and start time,
//! so a reused pid is never mistaken for one). On disconnect they are killed, and those that
//! were re-parented to mcplab (the binary makes itself a child subreaper) are reaped. A process
//! that left the tree between two refreshes (a double fork) stays in it on Linux, because the
//! server is started as the child subreaper of its own descendants (`stdio::adopt_orphans`):
//! the orphan is re-parented to the server, not to init. It is also found on disconnect if it
//! holds one of the server's stdio pipes. The stop reads the tree once more just before the
//! server's stdin is closed ([`ProcessTree::survey`]): a server that exits on EOF re-parents
//! its orphans to init, out of reach (a daemon it forks after that still escapes). Hostile
//! code can still escape through other services (systemd-run, cron, a ptrace trick). This
//! module never signals a process it did not see descend from a server; a child of this
//! process between fork and exec holds the pipes too, and is left alone (`forking_here`).
//! [`reap_orphans`] collects the exit of any other process re-parented to a subreaper mcplab
//! (a browser started through `xdg-open`, helpers of a killed renderer), so none stays a
//! zombie. Elsewhere than Linux it does nothing.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use parking_lot::Mutex;

/// A process, by pid and start time (clock ticks since boot), which together never repeat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Proc {
    pub pid: i32,
    pub start: u64,
}

/// How often a connected server's tree is looked at.
pub(crate) const REFRESH_EVERY: Duration = Duration::from_secs(2);

/// The known descendants of one server.
pub(crate) struct ProcessTree {
    root: i32,
    known: Mutex<HashSet<Proc>>,
    /// Inodes of the server's stdio pipes: whoever holds one descends from the server.
    pipes: Vec<u64>,
    /// When the server started: its descendants started no earlier.
    root_start: u64,
}

impl ProcessTree {
    pub(crate) fn new(root: u32, pipes: Vec<u64>) -> Self {
        let root = root as i32;
        Self {
            root,
            known: Mutex::new(HashSet::new()),
            pipes,
            root_start: start_of(root).unwrap_or(0),
        }
    }

    /// Looks at the process table again and remembers every descendant seen.
    pub(crate) fn refresh(&self) {
        self.refresh_from(&table());
    }

    fn refresh_from(&self, table: &HashMap<i32, Entry>) -> Vec<Proc> {
        let mut known = self.known.lock();
        let seeds: Vec<i32> = std::iter::once(self.root)
            .chain(
                known
                    .iter()
                    .filter(|p| table.get(&p.pid).is_some_and(|e| e.start == p.start))
                    .map(|p| p.pid),
            )
            .collect();
        *known = descendants(table, &seeds)
            .into_iter()
            .filter(|p| p.pid != self.root)
            .collect();
        known.iter().copied().collect()
    }

    /// Remembers everything that descends from the server now ([`Self::doomed`]), so a later
    /// stop kills it even if the server has exited in between. Call it just before the server
    /// is asked to stop (its stdin closed): once it exits, its orphans go to init, and those
    /// that closed its pipes could be found no more.
    pub(crate) fn survey(&self) {
        let procs = self.doomed();
        self.known.lock().extend(procs);
    }

    /// Everything that descends from the server now: the tree, and the processes holding its
    /// stdio pipes. Call before stopping it (a dying parent re-parents its children).
    pub(crate) fn doomed(&self) -> Vec<Proc> {
        self.doomed_from(&table())
    }

    /// [`Self::doomed`], and the processes re-parented to this one since the server started,
    /// with their descendants: for a child subreaper whose only child is the server (the tap),
    /// the server's orphans come to it when the server exits.
    pub(crate) fn doomed_with_adopted(&self) -> Vec<Proc> {
        let table = table();
        let me = std::process::id() as i32;
        let adopted: Vec<i32> = table
            .iter()
            .filter(|(pid, e)| e.ppid == me && **pid != self.root && e.start >= self.root_start)
            .map(|(pid, _)| *pid)
            .collect();
        let mut procs = self.doomed_from(&table);
        for p in descendants(&table, &adopted) {
            if !procs.contains(&p) {
                procs.push(p);
            }
        }
        procs
    }

    fn doomed_from(&self, table: &HashMap<i32, Entry>) -> Vec<Proc> {
        let mut procs = self.refresh_from(table);
        for p in pipe_holders(table, &self.pipes, self.root, self.root_start) {
            if !procs.contains(&p) {
                procs.push(p);
            }
        }
        procs
    }

    /// Kills every descendant known now and reaps those that became our children, waiting at
    /// most `reap_for` for them to exit.
    pub(crate) fn kill_all(&self, reap_for: Duration) {
        kill_and_reap(&self.doomed(), reap_for);
    }
}

/// One process table entry.
#[derive(Debug, Clone, Copy)]
struct Entry {
    ppid: i32,
    start: u64,
}

/// Every process reachable from `seeds` by parent links (seeds included, if alive).
fn descendants(table: &HashMap<i32, Entry>, seeds: &[i32]) -> HashSet<Proc> {
    let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
    for (pid, entry) in table {
        children.entry(entry.ppid).or_default().push(*pid);
    }
    let mut found = HashSet::new();
    let mut stack: Vec<i32> = seeds.to_vec();
    let mut seen = HashSet::new();
    while let Some(pid) = stack.pop() {
        if !seen.insert(pid) {
            continue;
        }
        if let Some(entry) = table.get(&pid) {
            found.insert(Proc {
                pid,
                start: entry.start,
            });
        }
        if let Some(kids) = children.get(&pid) {
            stack.extend(kids);
        }
    }
    found
}

#[cfg(target_os = "linux")]
fn table() -> HashMap<i32, Entry> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return HashMap::new();
    };
    dir.filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| Some((pid, stat(pid)?)))
        .map(|(pid, (entry, _))| (pid, entry))
        .collect()
}

#[cfg(not(target_os = "linux"))]
fn table() -> HashMap<i32, Entry> {
    HashMap::new()
}

/// Parent, start time and state of `pid` from `/proc/<pid>/stat`. The command name (field 2)
/// may contain spaces and parentheses, so fields are counted after its last `)`.
#[cfg(target_os = "linux")]
fn stat(pid: i32) -> Option<(Entry, char)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name: state (3), ppid (4), … starttime (22).
    let state = fields.first()?.chars().next()?;
    let ppid = fields.get(1)?.parse().ok()?;
    let start = fields.get(19)?.parse().ok()?;
    Some((Entry { ppid, start }, state))
}

/// Kills `procs` (those still alive as they were) and reaps the ones that are our children.
#[cfg(target_os = "linux")]
pub(crate) fn kill_and_reap(procs: &[Proc], reap_for: Duration) {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    let me = std::process::id() as i32;
    let same = |p: &Proc| stat(p.pid).filter(|(e, _)| e.start == p.start);
    let mut ours = Vec::new();
    for p in procs {
        let Some((entry, _)) = same(p) else { continue };
        let _ = kill(Pid::from_raw(p.pid), Signal::SIGKILL);
        if entry.ppid == me {
            ours.push(*p);
        }
    }
    // Re-parented to us: collect their exit so no zombie stays behind.
    let deadline = std::time::Instant::now() + reap_for;
    while !ours.is_empty() {
        ours.retain(|p| !reaped(p));
        if ours.is_empty() || std::time::Instant::now() >= deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Reaps `p` if it is a zombie child of ours; true when it is gone.
#[cfg(target_os = "linux")]
fn reaped(p: &Proc) -> bool {
    use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
    use nix::unistd::Pid;
    match stat(p.pid) {
        Some((entry, _)) if entry.start == p.start => {
            match waitpid(Pid::from_raw(p.pid), Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::StillAlive) => false,
                // Reaped, or not our child after all (someone else reaps it).
                Ok(_) | Err(_) => true,
            }
        }
        _ => true,
    }
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn kill_and_reap(_procs: &[Proc], _reap_for: Duration) {}

/// The inode of the pipe (or other file) behind one of this process's descriptors.
#[cfg(target_os = "linux")]
pub(crate) fn inode_of(fd: i32) -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(format!("/proc/self/fd/{fd}"))
        .ok()
        .map(|m| m.ino())
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn inode_of(_fd: i32) -> Option<u64> {
    None
}

/// Processes other than `root` and this one, started since `since`, that hold one of `pipes`
/// (readable ones only: other users' processes are not ours to kill). A child this process is
/// still forking ([`forking_here`]) holds every descriptor of ours, these pipes included, and
/// is none of the server's.
#[cfg(target_os = "linux")]
fn pipe_holders(table: &HashMap<i32, Entry>, pipes: &[u64], root: i32, since: u64) -> Vec<Proc> {
    if pipes.is_empty() {
        return Vec::new();
    }
    let wanted: Vec<String> = pipes.iter().map(|i| format!("pipe:[{i}]")).collect();
    let me = std::process::id() as i32;
    table
        .iter()
        .filter(|(pid, e)| **pid != root && **pid != me && e.start >= since)
        // Asked before its descriptors are read: once it has exec'd, it holds none of ours.
        .filter(|(pid, e)| !forking_here(**pid, e, me))
        .filter(|(pid, _)| {
            let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
                return false;
            };
            fds.filter_map(Result::ok).any(|fd| {
                std::fs::read_link(fd.path())
                    .is_ok_and(|target| wanted.iter().any(|w| target.as_os_str() == w.as_str()))
            })
        })
        .map(|(pid, e)| Proc {
            pid: *pid,
            start: e.start,
        })
        .collect()
}

/// Whether `pid` is a child of this process that has not exec'd yet: its program is still
/// ours. Between fork and exec (another server being started, a browser launched) a child
/// holds copies of all our descriptors; killing it as a holder of a server's pipes killed
/// the next server started while one stopped (the fuzzer's restart after a crash).
#[cfg(target_os = "linux")]
fn forking_here(pid: i32, entry: &Entry, me: i32) -> bool {
    use std::os::unix::fs::MetadataExt;
    let program = |p: &str| {
        std::fs::metadata(format!("/proc/{p}/exe"))
            .ok()
            .map(|m| (m.dev(), m.ino()))
    };
    entry.ppid == me && program(&pid.to_string()).is_some_and(|p| program("self") == Some(p))
}

#[cfg(not(target_os = "linux"))]
fn pipe_holders(_t: &HashMap<i32, Entry>, _pipes: &[u64], _root: i32, _since: u64) -> Vec<Proc> {
    Vec::new()
}

#[cfg(target_os = "linux")]
fn start_of(pid: i32) -> Option<u64> {
    stat(pid).map(|(e, _)| e.start)
}

#[cfg(not(target_os = "linux"))]
fn start_of(_pid: i32) -> Option<u64> {
    None
}

/// How long an exited child may stay unreaped before it counts as an orphan nobody waits for.
/// Children tokio spawned are reaped by it within moments of their `SIGCHLD`.
#[cfg(target_os = "linux")]
const ORPHAN_GRACE: Duration = Duration::from_secs(1);

/// Reaps, for as long as it runs, exited processes re-parented to this one that nobody else
/// waits for. For a process that made itself a child subreaper; run it once, on the runtime.
pub async fn reap_orphans() {
    #[cfg(target_os = "linux")]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let Ok(mut exits) = signal(SignalKind::child()) else {
            return;
        };
        while exits.recv().await.is_some() {
            tokio::time::sleep(ORPHAN_GRACE).await;
            let _ = tokio::task::spawn_blocking(reap_zombie_children).await;
        }
    }
}

/// Reaps every child of ours that is a zombie now.
#[cfg(target_os = "linux")]
fn reap_zombie_children() {
    use nix::sys::wait::{WaitPidFlag, waitpid};
    use nix::unistd::Pid;
    let me = std::process::id() as i32;
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return;
    };
    let pids = dir
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok());
    for pid in pids {
        if let Some((entry, 'Z')) = stat(pid)
            && entry.ppid == me
        {
            let _ = waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descendants_follow_parent_links_from_every_seed() {
        let table: HashMap<i32, Entry> = [(10, 1), (11, 10), (12, 11), (20, 1), (30, 99)]
            .into_iter()
            .map(|(pid, ppid)| {
                (
                    pid,
                    Entry {
                        ppid,
                        start: pid as u64,
                    },
                )
            })
            .collect();
        let mut found: Vec<i32> = descendants(&table, &[10, 30])
            .iter()
            .map(|p| p.pid)
            .collect();
        found.sort();
        assert_eq!(found, [10, 11, 12, 30]);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_reads_its_own_stat() {
        let (entry, state) = stat(std::process::id() as i32).expect("own stat");
        assert!(entry.ppid > 0);
        assert!(matches!(state, 'R' | 'S'));
    }
}
