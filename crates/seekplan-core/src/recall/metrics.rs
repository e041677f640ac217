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

/// The quantiles `qs` (ascending) of `bits` as [`quantile`] gives them;
/// each selection searches only the values above the previous one's rank.
fn quantiles<const N: usize>(bits: &mut [u64], qs: [f64; N]) -> [Option<f64>; N] {
    let n = bits.len();
    let mut from = 0;
    qs.map(|q| {
        if n == 0 {
            return None;
        }
        let rank = ((q * n as f64).ceil() as usize).clamp(1, n) - 1;
        let rank = rank.max(from);
        let value = *bits[from..].select_nth_unstable(rank - from).1;
        from = rank;
        Some(f64::from_bits(value))
    })
}

#[cfg(test)]
mod tests {
    use super::{quantile, quantiles, time_bits};

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
    fn quantiles_at_once_are_the_quantiles_one_by_one() {
        let mut v = bits((0..1000).map(|i| f64::from((i * 7919) % 997) / 8.0));
        let qs = [0.0, 0.5, 0.5, 0.9, 0.99, 1.0];
        let one_by_one = qs.map(|q| quantile(&mut v.clone(), q));
        assert_eq!(quantiles(&mut v, qs), one_by_one);
    }
}
