//! The shipped drive figures reproduce the averages they were calibrated on
//! (Sandstå & Midtstraum section 5 and Table 1).

mod common;

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
