//! Data characters share: what every character of one creature reads each frame, built once
//! per creature (the same `Arc`) and settings, and the working memory of a frame's stages,
//! one per thread. A crowd then keeps one copy of each in the processor's caches instead
//! of one per character.

use crate::creature::Creature;
use std::cell::RefCell;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::thread::LocalKey;

/// Runs `f` with this thread's working memory `T` (a stage's scratch that nothing reads
/// after the stage: every character on the thread can use the same). A stage running inside
/// another of its kind on the thread, which never happens in the pipeline, gets fresh memory
/// of its own rather than a panic.
pub(crate) fn with_workspace<T: Default, R>(
    key: &'static LocalKey<RefCell<T>>,
    f: impl FnOnce(&mut T) -> R,
) -> R {
    key.with(|cell| match cell.try_borrow_mut() {
        Ok(mut ws) => f(&mut ws),
        Err(_) => f(&mut T::default()),
    })
}

/// Shared values of type `T` by creature and key (the settings they were built with).
/// An entry lives as long as some character holds its value; an `Arc`'s allocation is not
/// reused while a `Weak` to it lives, so comparing creatures by pointer is sound.
pub(crate) struct PerCreature<K, T> {
    entries: Mutex<Vec<Entry<K, T>>>,
}

/// The creature, the key and the value, none of them kept alive by the entry.
type Entry<K, T> = (Weak<Creature>, K, Weak<T>);

impl<K: PartialEq + Clone, T> PerCreature<K, T> {
    pub const fn new() -> Self {
        PerCreature {
            entries: Mutex::new(Vec::new()),
        }
    }

    /// The value for `creature` and `key`, made by `make` if no character holds one.
    pub fn get(&self, creature: &Arc<Creature>, key: &K, make: impl FnOnce() -> T) -> Arc<T> {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries.retain(|(c, _, v)| c.strong_count() > 0 && v.strong_count() > 0);
        let found = entries.iter().find_map(|(c, k, v)| {
            (std::ptr::eq(c.as_ptr(), Arc::as_ptr(creature)) && k == key)
                .then(|| v.upgrade())
                .flatten()
        });
        found.unwrap_or_else(|| {
            let value = Arc::new(make());
            entries.push((
                Arc::downgrade(creature),
                key.clone(),
                Arc::downgrade(&value),
            ));
            value
        })
    }
}

/// Asks the processor to bring every cache line of `items` into its caches, without waiting
/// for them (see [`prefetch`]). Only the first line of an element wider than a line: safe
/// code can name no address inside it (a struct asks for its fields instead, as
/// `Character::update_many` does).
pub(crate) fn prefetch_lines<T>(items: &[T]) {
    let step = (64 / std::mem::size_of::<T>().max(1)).max(1);
    for item in items.iter().step_by(step) {
        prefetch(item);
    }
    // A slice ending past the last line stepped on.
    if let Some(last) = items.last() {
        prefetch(last);
    }
}

/// Asks for the cache line holding `item` without waiting for it: nothing depends on the
/// request, so the processor goes on working while the line comes. Into the second-level
/// cache, not the first: `update_many` asks for a few characters ahead, and pulling them
/// all into the small first-level cache evicted what the current one was using (the crowd
/// ran 5 % slower than without asking).
/// Only with the `prefetch` feature on x86_64 (the `anymorph` binary turns it on); elsewhere
/// a no-op, so a game that leaves the feature off links one crate fewer.
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(all(feature = "prefetch", target_arch = "x86_64"))]
    safe_arch::prefetch_t1(item);
    #[cfg(not(all(feature = "prefetch", target_arch = "x86_64")))]
    let _ = item;
}
