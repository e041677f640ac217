//! Every seek class of Figure 2 comes out of the serpentine model, each with
//! the mechanics the paper describes.

use crate::common;

use seekplan_core::model::{Block, CostModel, SeekClass, SerpentineModel};

/// Block at fraction `along` of track `t` (in the track's own direction).
fn at(m: &SerpentineModel, t: usize, along: f64) -> Block {
    let start = m.layout().track_starts[t];
    Block(start + (along * m.layout().track_len(t) as f64) as u64)
}

fn case(from: (usize, f64), to: (usize, f64)) -> (SeekClass, f64, SerpentineModel) {
    let m = common::drive("mlr1");
    let a = at(&m, from.0, from.1);
    let b = at(&m, to.0, to.1);
    (m.seek_class(a, b), m.locate(a, b), m)
}

// MLR1: 25 key points, spacing 0.04 of a track; reversal 2.8 s; traverse 115 s.

#[test]
fn class1_same_track_ahead_streams_without_keypoint() {
    let (c, t, m) = case((0, 0.10), (0, 0.11));
    assert_eq!(c, SeekClass::SameTrackAhead);
    // 0.01 track at traverse speed plus overhead, no reversal.
    assert!(
        t < m.spec().locate_overhead_s + 0.011 * m.spec().traverse_s + 0.01,
        "{t}"
    );
}

#[test]
fn class2_same_track_behind_reverses_twice() {
    let (c, t, m) = case((0, 0.50), (0, 0.30));
    assert_eq!(c, SeekClass::SameTrackBehind);
    assert!(
        t >= 2.0 * m.spec().reverse_s + 0.2 * m.spec().traverse_s * 0.9,
        "{t}"
    );
}

#[test]
fn class3_codirectional_within_keypoint_distance_backs_up() {
    // Target 0.01 ahead on track 2, but its key point (0.48) is behind the head.
    let (c, t, m) = case((0, 0.49), (2, 0.50));
    assert_eq!(c, SeekClass::CoTrackAheadNearKeypoint);
    assert!(t >= 2.0 * m.spec().reverse_s, "{t}");
}

#[test]
fn class4_codirectional_beyond_keypoint_needs_no_reversal() {
    let (c, t, m) = case((0, 0.10), (2, 0.50));
    assert_eq!(c, SeekClass::CoTrackAhead);
    assert!(t < m.spec().reverse_s + 0.41 * m.spec().traverse_s, "{t}");
}

#[test]
fn class5_codirectional_behind_reverses_twice() {
    let (c, t, m) = case((0, 0.60), (2, 0.20));
    assert_eq!(c, SeekClass::CoTrackBehind);
    assert!(
        t >= 2.0 * m.spec().reverse_s + 0.36 * m.spec().traverse_s,
        "{t}"
    );
}

#[test]
fn class6_antidirectional_ahead_runs_on_then_reverses_once() {
    // Track 1 runs in reverse; along 0.3 is lpos 0.7, ahead of the head at 0.2.
    let (c, t, m) = case((0, 0.20), (1, 0.30));
    assert_eq!(c, SeekClass::AntiTrackAhead);
    let one = m.spec().reverse_s;
    assert!(t >= one && t < 2.0 * one + 0.6 * m.spec().traverse_s, "{t}");
}

#[test]
fn class7_antidirectional_behind_with_keypoint_ahead() {
    // Target at lpos 0.505 (behind the head at 0.51), its key point at 0.52 ahead.
    let (c, _, _) = case((0, 0.51), (1, 0.495));
    assert_eq!(c, SeekClass::AntiTrackBehindNearKeypoint);
}

#[test]
fn class8_antidirectional_behind_reverses_at_once() {
    let (c, t, m) = case((0, 0.80), (1, 0.70));
    assert_eq!(c, SeekClass::AntiTrackBehind);
    assert!(
        t < 2.0 * m.spec().reverse_s + 0.6 * m.spec().traverse_s,
        "{t}"
    );
}

#[test]
fn classes_are_numbered_as_in_figure_2() {
    assert_eq!(SeekClass::SameTrackAhead.number(), 1);
    assert_eq!(SeekClass::AntiTrackBehind.number(), 8);
}

#[test]
fn near_keypoint_seeks_cost_more_than_streaming_further() {
    // The key point effect: a short hop back costs far more than the same hop ahead.
    let (_, behind, _) = case((0, 0.50), (0, 0.49));
    let (_, ahead, _) = case((0, 0.50), (0, 0.51));
    assert!(behind > 4.0 * ahead, "behind {behind} ahead {ahead}");
}

#[test]
fn transfer_counts_track_turns_inside_a_read() {
    let m = common::drive("mlr1");
    let start = m.layout().track_starts[1] - 2;
    let one_track = seekplan_core::model::Extent {
        start: Block(0),
        bytes: 4 * m.block_bytes(),
    };
    let across = seekplan_core::model::Extent {
        start: Block(start),
        bytes: 4 * m.block_bytes(),
    };
    let turn = m.read(across).seconds - m.read(one_track).seconds;
    assert!((turn - m.spec().turn_s).abs() < 1e-9, "turn {turn}");
    assert_eq!(m.read(across).end, Block(start + 4));
}

#[test]
fn full_tape_read_takes_about_two_and_a_half_hours() {
    let m = common::drive("mlr1");
    let all = seekplan_core::model::Extent {
        start: Block(0),
        bytes: m.capacity() * m.block_bytes(),
    };
    let hours = m.read(all).seconds / 3600.0;
    assert!((2.3..2.6).contains(&hours), "{hours} h");
}

#[test]
fn max_seek_is_near_126_s() {
    let m = common::drive("mlr1");
    let end_of_track0 = at(&m, 0, 0.999);
    let worst = (0..72)
        .flat_map(|t| (0..50).map(move |k| (t, k as f64 / 50.0)))
        .map(|(t, f)| {
            m.locate(Block(0), at(&m, t, f))
                .max(m.locate(end_of_track0, at(&m, t, f)))
        })
        .fold(0.0, f64::max);
    assert!((worst - 126.0).abs() < 6.0, "max seek {worst}");
}
