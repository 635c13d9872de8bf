//! A server process started by other code than the stdio wire (the tap starts its own, with
//! the host's environment, directory and stderr) under the same rules as every stdio server:
//! [`isolate`] starts it in a process group of its own as the reaper of its orphaned
//! descendants, and a [`Family`] watches its process tree while it runs and kills what is left
//! of it when it ends (setsid grandchildren and double-forked daemons included; see
//! `process_tree`). It moves no bytes and does not wait for the server.

use std::sync::Arc;
use std::sync::mpsc;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

use super::super::process_tree::{ProcessTree, REFRESH_EVERY, inode_of, kill_and_reap};
use super::{REAP_WAIT, adopt_orphans};

/// Prepares `cmd` to start a server the way the stdio wire does: in a process group of its
/// own, as the child subreaper of its descendants (Linux), so none escapes a [`Family`].
pub fn isolate(cmd: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    adopt_orphans(cmd);
}

/// The descendants of one server started with [`isolate`], watched until [`Family::end`].
pub struct Family {
    pgid: Pid,
    tree: Arc<ProcessTree>,
    /// Dropping it stops the watching thread.
    _watching: mpsc::Sender<()>,
    sole_parent: bool,
}

impl Family {
    /// Watches `child`'s tree (call before its stdio pipes are taken: a process holding one
    /// descends from it). With `sole_parent`, this process is a child subreaper whose only
    /// child is the server, so whatever is re-parented to it after the server started is the
    /// server's (the `mcplab tap` binary).
    pub fn watch(child: &std::process::Child, sole_parent: bool) -> Self {
        use std::os::fd::AsRawFd;
        let fds = [
            child.stdin.as_ref().map(AsRawFd::as_raw_fd),
            child.stdout.as_ref().map(AsRawFd::as_raw_fd),
            child.stderr.as_ref().map(AsRawFd::as_raw_fd),
        ];
        let pipes = fds.into_iter().flatten().filter_map(inode_of).collect();
        let tree = Arc::new(ProcessTree::new(child.id(), pipes));
        let (watching, stop) = mpsc::channel::<()>();
        let weak = Arc::downgrade(&tree);
        std::thread::spawn(move || {
            // Until `Family` is dropped (`Disconnected`), the tree is looked at now and then.
            while let Some(tree) = weak.upgrade() {
                tree.refresh();
                drop(tree);
                if stop.recv_timeout(REFRESH_EVERY) != Err(mpsc::RecvTimeoutError::Timeout) {
                    return;
                }
            }
        });
        Self {
            pgid: Pid::from_raw(child.id() as i32),
            tree,
            _watching: watching,
            sole_parent,
        }
    }

    /// Kills the server's process group and every descendant known, and reaps those that
    /// became this process's children. Blocking (up to a second): call it off the runtime.
    pub fn end(self) {
        let doomed = match self.sole_parent {
            true => self.tree.doomed_with_adopted(),
            false => self.tree.doomed(),
        };
        // ESRCH (the group is gone) is the normal case.
        let _ = killpg(self.pgid, Signal::SIGKILL);
        kill_and_reap(&doomed, REAP_WAIT);
    }
}
