//! The shipped drive figures reproduce the averages they were calibrated on
//! (Sandstå & Midtstraum section 5 and Table 1): the MLR1's three figures
//! (`traverse_s`, `reverse_s`, `locate_overhead_s`) on three targets, the
//! DLT2000's `traverse_s` on one (docs/calibration.md).

use crate::common;

use seekplan_core::model::{Block, CostModel};
use seekplan_core::order::{order_tape, Algorithm};

fn mean_from_bot(name: &str) -> f64 {
    let model = common::drive(name);
    let reqs = common::uniform(&model, 40_000, 7);
    reqs.iter()
        .map(|r| model.locate(Block(0), r.start) + model.read(*r).seconds)
        .sum::<f64>()
        / reqs.len() as f64
}

#[test]
fn mlr1_single_request_from_bot_averages_63_2_s() {
    let m = mean_from_bot("mlr1");
    assert!((m - 63.2).abs() < 1.0, "mean {m}");
}

#[test]
fn dlt2000_single_request_from_bot_averages_66_8_s() {
    let m = mean_from_bot("dlt2000");
    assert!((m - 66.8).abs() < 1.0, "mean {m}");
}

#[test]
fn mlr1_fifo_stabilises_near_45_s_per_request() {
    let model = common::drive("mlr1");
    let reqs = common::uniform(&model, 4096, 11);
    let s = order_tape(&model, reqs, Block(0), None, Algorithm::Fifo).unwrap();
    let per = s.total_s / 4096.0;
    assert!((per - 45.0).abs() < 1.5, "per request {per}");
}

/// The third MLR1 target, the one that identifies `locate_overhead_s`: Table 1
/// gives MPScan* 5.4 s per request at 1024 requests. One list's mean varies
/// by 0.06 s (standard deviation over 16 lists), the mean of six by about
/// 0.03 s, so ±0.25 s fails when the figure moves by about a quarter second.
#[test]
fn mlr1_mpscan_star_at_1024_requests_averages_5_4_s() {
    let model = common::drive("mlr1");
    let lists = 6;
    let per = (0..lists)
        .map(|k| {
            let reqs = common::uniform(&model, 1024, 100 + k);
            let s = order_tape(&model, reqs, Block(0), None, Algorithm::MpScanStar).unwrap();
            s.total_s / 1024.0
        })
        .sum::<f64>()
        / lists as f64;
    assert!((per - 5.4).abs() < 0.25, "per request {per}");
}
