//! Copy-on-write parts shared between copies of the simulator's state and memory (a trace's snapshots, a
//! search's nodes).

use std::sync::Arc;

/// Make `to` share `from`'s value, skipping the two reference counts when it already does.
#[inline]
pub(crate) fn share_from<T>(to: &mut Arc<T>, from: &Arc<T>) {
    if !Arc::ptr_eq(to, from) {
        *to = Arc::clone(from);
    }
}
