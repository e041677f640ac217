//! The untimed model: drives as cache slots, requests taken one at a time in
//! trace order, a cartridge loaded only when requested and kept until
//! evicted. Belady's choice is optimal there (the offline minimum of
//! loads), so its count is the floor no eviction policy can beat.

use super::config::{EvictionPolicy, MAX_DRIVES};
use super::eviction::Evictor;
use crate::{Error, Result};

/// For each request, the index of the next request for the same cartridge
/// (`u32::MAX` if none).
pub fn next_requests(carts: &[u32], cartridges: usize) -> Vec<u32> {
    let mut next = vec![u32::MAX; carts.len()];
    let mut seen = vec![u32::MAX; cartridges];
    for i in (0..carts.len()).rev() {
        let c = carts[i] as usize;
        next[i] = seen[c];
        seen[c] = i as u32;
    }
    next
}

/// Fails, naming the argument, unless [`untimed_loads`] can run on these:
/// `drives` in `1..=MAX_DRIVES`, every cartridge below `cartridges`.
pub fn check_untimed(carts: &[u32], cartridges: usize, drives: usize) -> Result<()> {
    if drives == 0 || drives > MAX_DRIVES {
        return Err(Error::invalid(
            "drives",
            format!("must be between 1 and {MAX_DRIVES}, got {drives}"),
        ));
    }
    if let Some(&bad) = carts.iter().find(|&&c| c as usize >= cartridges) {
        return Err(Error::invalid(
            "trace",
            format!("cartridge {bad} outside 0..{cartridges}"),
        ));
    }
    Ok(())
}

/// Loads `policy` makes in the untimed model with `drives` slots (checked
/// by [`check_untimed`]).
pub fn untimed_loads(
    carts: &[u32],
    cartridges: usize,
    drives: usize,
    policy: EvictionPolicy,
    seed: u64,
) -> u64 {
    let next = next_requests(carts, cartridges);
    let mut evictor = Evictor::new(policy, cartridges, drives, seed);
    let mut mounted = vec![false; cartridges];
    let mut slots: Vec<u32> = Vec::with_capacity(drives);
    let mut loads = 0;
    for (i, &cart) in carts.iter().enumerate() {
        let next_use = match next[i] {
            u32::MAX => f64::INFINITY,
            j => f64::from(j),
        };
        evictor.reference(cart, i as f64, next_use);
        if mounted[cart as usize] {
            continue;
        }
        loads += 1;
        if slots.len() == drives {
            let victim = slots.swap_remove(evictor.choose(&slots));
            mounted[victim as usize] = false;
            evictor.unloaded(victim);
        }
        slots.push(cart);
        mounted[cart as usize] = true;
        evictor.loaded(cart, i as f64);
    }
    loads
}
