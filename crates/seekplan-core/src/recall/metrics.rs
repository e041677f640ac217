//! What a recall run measured (the columns of the paper's Table 1 and more).

use crate::library::MountRecord;
use serde::Serialize;

/// Summary figures of one run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metrics {
    /// Bytes staged over the virtual duration, in MB/s (10^6 bytes).
    pub throughput_mb_s: f64,
    /// Mean minutes from entering the tape-system queue to being read.
    pub staging_min: f64,
    /// Median staging minutes (nearest rank; None when nothing was staged).
    pub staging_p50_min: Option<f64>,
    /// 90th percentile of the staging minutes.
    pub staging_p90_min: Option<f64>,
    /// 99th percentile of the staging minutes.
    pub staging_p99_min: Option<f64>,
    /// Number of mounts (including mounts still in a drive at the end).
    pub mounts: usize,
    /// Number of distinct tapes mounted.
    pub distinct_mounts: usize,
    /// Mean bytes read per mount, in % of the tape's capacity.
    pub pct_recalled_per_mount: f64,
    /// Mean minutes a tape stayed mounted.
    pub mount_min: f64,
    /// Fraction of drive time spent mounting, positioning, reading or unmounting.
    pub drive_utilisation: f64,
    /// Files staged.
    pub files_staged: u64,
    /// Seconds from the start to the end of the last read (the campaign's
    /// makespan once every file is staged); None when nothing was staged.
    pub last_staged_s: Option<f64>,
    /// Bytes staged.
    pub bytes_staged: u64,
    /// Files requested in the campaign.
    pub files_requested: u64,
    /// Virtual duration of the run in seconds.
    pub duration_s: f64,
}

/// Time series sampled at a fixed interval.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Series {
    /// End of each sample interval, in seconds.
    pub t_s: Vec<f64>,
    /// Bytes staged during the interval, in MB/s.
    pub throughput_mb_s: Vec<f64>,
    /// Drives busy at the end of the interval.
    pub busy_drives: Vec<usize>,
}

impl Metrics {
    /// Summarises a run from its raw counts.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_run(
        duration_s: f64,
        bytes_staged: u64,
        files_staged: u64,
        last_staged_s: Option<f64>,
        staging_sum_s: f64,
        staging_bits: &mut [u64],
        mounts: &[MountRecord],
        capacities: &[u64],
        busy_s: f64,
        drives: usize,
        files_requested: u64,
    ) -> Self {
        let mean = |sum: f64, n: usize| if n == 0 { 0.0 } else { sum / n as f64 };
        let mut tapes: Vec<u32> = mounts.iter().map(|m| m.tape).collect();
        tapes.sort_unstable();
        tapes.dedup();
        let pct: f64 = mounts
            .iter()
            .map(|m| 100.0 * m.bytes as f64 / capacities[m.tape as usize] as f64)
            .sum();
        let mount_s: f64 = mounts.iter().map(|m| m.duration_s).sum();
        let [p50, p90, p99] = quantiles(staging_bits, [0.50, 0.90, 0.99]);
        Metrics {
            throughput_mb_s: bytes_staged as f64 / 1e6 / duration_s,
            staging_min: mean(staging_sum_s, files_staged as usize) / 60.0,
            staging_p50_min: p50.map(|s| s / 60.0),
            staging_p90_min: p90.map(|s| s / 60.0),
            staging_p99_min: p99.map(|s| s / 60.0),
            mounts: mounts.len(),
            distinct_mounts: tapes.len(),
            pct_recalled_per_mount: mean(pct, mounts.len()),
            mount_min: mean(mount_s, mounts.len()) / 60.0,
            drive_utilisation: busy_s / (drives as f64 * duration_s),
            files_staged,
            last_staged_s,
            bytes_staged,
            files_requested,
            duration_s,
        }
    }
}

/// The bits of a non-negative time, as [`quantiles`] takes them: they order
/// as the times do, so a selection compares integers (fewer instructions
/// than [`f64::total_cmp`] on a run's ~10⁵ staging times).
pub(crate) fn time_bits(t: f64) -> u64 {
    debug_assert!(t >= 0.0 && t.is_sign_positive(), "a time of {t}");
    t.to_bits()
}

/// The `q` quantile of `bits` ([`time_bits`]) by nearest rank (the smallest
/// value with at least a share `q` of the values at or below it); None when
/// empty.
#[cfg(test)]
fn quantile(bits: &mut [u64], q: f64) -> Option<f64> {
    quantiles(bits, [q])[0]
}

/// The quantiles `qs` (ascending) of `bits` as [`quantile`] gives them.
///
/// A run's ~10⁵ staging times are counted into buckets by their top 16
/// bits (the exponent and 4 bits of the mantissa: a sixteenth of an octave
/// each), which names the bucket of each quantile's rank; only those
/// buckets' values are gathered and searched. Two passes of a few
/// instructions per value, where selecting among all of them took three
/// times as many (callgrind, a queue-30,000 run, 2026-11-27).
fn quantiles<const N: usize>(bits: &mut [u64], qs: [f64; N]) -> [Option<f64>; N] {
    let n = bits.len();
    if n == 0 {
        return [None; N];
    }
    let rank = |q: f64| ((q * n as f64).ceil() as usize).clamp(1, n) - 1;
    // Times are not negative: the sign bit is 0, so 15 bits name a bucket
    // (the mask only spares a bounds check).
    let bucket = |b: u64| (b >> 48) as usize & 0x7fff;
    let mut counts = vec![0u32; 1 << 15];
    for &b in bits.iter() {
        counts[bucket(b)] += 1;
    }
    // Each quantile's bucket and its rank among the bucket's values.
    let mut seen = 0;
    let mut next = 0;
    let mut wanted = [(0usize, 0usize); N];
    let ranks = qs.map(rank);
    for (k, &count) in counts.iter().enumerate() {
        while next < N && ranks[next] < seen + count as usize {
            wanted[next] = (k, ranks[next] - seen);
            next += 1;
        }
        if next == N {
            break;
        }
        seen += count as usize;
    }
    // The values of the wanted buckets, gathered in one pass: `counts` now
    // maps a bucket to 1 + the index of its gathering, or 0.
    counts.fill(0);
    let mut gathered: Vec<Vec<u64>> = Vec::with_capacity(N);
    for &(k, _) in &wanted {
        if counts[k] == 0 {
            gathered.push(Vec::new());
            counts[k] = gathered.len() as u32;
        }
    }
    let map = &counts[..];
    for &b in bits.iter() {
        let g = map[bucket(b)];
        if g != 0 {
            gathered[g as usize - 1].push(b);
        }
    }
    wanted.map(|(k, within)| {
        let values = &mut gathered[counts[k] as usize - 1];
        Some(f64::from_bits(*values.select_nth_unstable(within).1))
    })
}

#[cfg(test)]
mod tests {
    use super::{quantile, quantiles, time_bits};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `times` as [`time_bits`].
    fn bits(times: impl IntoIterator<Item = f64>) -> Vec<u64> {
        times.into_iter().map(time_bits).collect()
    }

    #[test]
    fn quantiles_by_nearest_rank() {
        let mut v = bits((1..=10).rev().map(f64::from));
        assert_eq!(quantile(&mut v, 0.5), Some(5.0));
        assert_eq!(quantile(&mut v, 0.9), Some(9.0));
        assert_eq!(quantile(&mut v, 0.99), Some(10.0));
        assert_eq!(quantile(&mut bits([3.0]), 0.5), Some(3.0));
        assert_eq!(quantile(&mut [], 0.5), None);
    }

    #[test]
    fn time_bits_order_as_the_times() {
        let times = [0.0, 1e-300, 0.25, 1.0, 59.5, 3.6e5, 1e300];
        for w in times.windows(2) {
            assert!(time_bits(w[0]) < time_bits(w[1]), "{w:?}");
        }
    }

    #[test]
    fn quantiles_are_the_sorted_values_at_their_ranks() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for case in 0..300 {
            // Few distinct values (ties), or spread over many octaves.
            let n = rng.gen_range(1..2000);
            let mut v = bits((0..n).map(|_| {
                if case % 2 == 0 {
                    f64::from(rng.gen_range(0..5u8))
                } else {
                    rng.gen_range(0.0..1.0f64).powi(8) * 1e6
                }
            }));
            let mut sorted = v.clone();
            sorted.sort_unstable();
            let qs = [0.0, 0.01, 0.5, 0.5, 0.9, 0.99, 1.0];
            let expected = qs.map(|q| {
                let rank = ((q * n as f64).ceil() as usize).clamp(1, n) - 1;
                Some(f64::from_bits(sorted[rank]))
            });
            assert_eq!(quantiles(&mut v, qs), expected, "case {case}");
        }
    }

    #[test]
    fn quantiles_at_once_are_the_quantiles_one_by_one() {
        let mut v = bits((0..1000).map(|i| f64::from((i * 7919) % 997) / 8.0));
        let qs = [0.0, 0.5, 0.5, 0.9, 0.99, 1.0];
        let one_by_one = qs.map(|q| quantile(&mut v.clone(), q));
        assert_eq!(quantiles(&mut v, qs), one_by_one);
    }
}
