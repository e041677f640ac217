//! Cartridge management (issue 37): each eviction policy on hand-made
//! traces with known answers, Belady's untimed floor against brute force and
//! against every policy, the timed replay's arithmetic on small cases, and
//! the geometry's moves and handbot waits.

use crate::common::seeded;
use proptest::prelude::*;
use seekplan_core::mounts::{
    check_untimed, replay, untimed_loads, Dismount, EvictionPolicy, Geometry, GeometryRobot,
    Library, MountConfig, MountTrace, Placement,
};
use std::collections::HashMap;

/// The untimed minimum of loads by exhaustive search over every eviction
/// choice (tiny traces only).
fn brute_force_loads(carts: &[u32], drives: usize) -> u64 {
    fn go(
        carts: &[u32],
        i: usize,
        cache: &mut Vec<u32>,
        drives: usize,
        memo: &mut HashMap<(usize, Vec<u32>), u64>,
    ) -> u64 {
        if i == carts.len() {
            return 0;
        }
        let mut key = cache.clone();
        key.sort_unstable();
        if let Some(&v) = memo.get(&(i, key.clone())) {
            return v;
        }
        let c = carts[i];
        let best = if cache.contains(&c) {
            go(carts, i + 1, cache, drives, memo)
        } else if cache.len() < drives {
            cache.push(c);
            let v = 1 + go(carts, i + 1, cache, drives, memo);
            cache.pop();
            v
        } else {
            (0..cache.len())
                .map(|k| {
                    let old = std::mem::replace(&mut cache[k], c);
                    let v = 1 + go(carts, i + 1, cache, drives, memo);
                    cache[k] = old;
                    v
                })
                .min()
                .expect("a full cache")
        };
        memo.insert((i, key), best);
        best
    }
    go(carts, 0, &mut Vec::new(), drives, &mut HashMap::new())
}

fn carts_of(text: &str) -> (Vec<u32>, usize) {
    let carts: Vec<u32> = text.bytes().map(|b| u32::from(b - b'A')).collect();
    let n = carts.iter().max().map_or(0, |&m| m as usize + 1);
    (carts, n)
}

fn untimed(text: &str, drives: usize, policy: EvictionPolicy) -> u64 {
    let (carts, n) = carts_of(text);
    untimed_loads(&carts, n, drives, policy, 1)
}

#[test]
fn each_policy_evicts_what_it_should_on_hand_made_traces() {
    use EvictionPolicy::*;
    // Two drives. At C: A was used last at 0 and B at 1, so LRU and FIFO
    // evict A, and A's return costs another load: 4. Belady evicts B (never
    // needed again): 3.
    assert_eq!(untimed("ABCA", 2, Lru), 4);
    assert_eq!(untimed("ABCA", 2, Fifo), 4);
    assert_eq!(untimed("ABCA", 2, Belady), 3);
    // A loaded first but used again after B: at C, FIFO evicts A (loaded
    // first) and keeps B, needed next; LRU evicts B (used longer ago) and
    // pays for it; Belady does what FIFO did.
    assert_eq!(untimed("ABACB", 2, Fifo), 3);
    assert_eq!(untimed("ABACB", 2, Lru), 4);
    assert_eq!(untimed("ABACB", 2, Belady), 3);
    // A used three times long ago, B once recently: LFU keeps A, LRU B.
    assert_eq!(untimed("AAABCA", 2, Lfu), 3);
    assert_eq!(untimed("AAABCA", 2, Lru), 4);
    // One drive: every change of cartridge is a load, whatever the policy.
    for p in EvictionPolicy::ALL {
        assert_eq!(untimed("ABABAB", 1, p), 6, "{p:?}");
        assert_eq!(untimed("AAAA", 1, p), 1, "{p:?}");
    }
}

#[test]
fn arc_keeps_the_frequent_cartridge_through_a_scan() {
    // A is re-referenced (it sits in T2); a scan of one-time cartridges C..H
    // passes through T1. With two drives ARC evicts the scan's cartridges
    // and keeps A; LRU loses A to the scan.
    let trace = "AACADAEAFAGAHA";
    assert_eq!(untimed(trace, 2, EvictionPolicy::Arc), 7);
    assert!(untimed(trace, 2, EvictionPolicy::Lru) >= 7);
    assert_eq!(untimed("AACDEFGHA", 2, EvictionPolicy::Arc), 7);
    assert_eq!(untimed("AACDEFGHA", 2, EvictionPolicy::Lru), 8);
}

#[test]
fn random_is_seeded() {
    let carts: Vec<u32> = (0..2_000u32).map(|i| (i * 7919 + i / 3) % 23).collect();
    let a = untimed_loads(&carts, 23, 5, EvictionPolicy::Random, 9);
    assert_eq!(a, untimed_loads(&carts, 23, 5, EvictionPolicy::Random, 9));
    let others: Vec<u64> = (10..20)
        .map(|s| untimed_loads(&carts, 23, 5, EvictionPolicy::Random, s))
        .collect();
    assert!(
        others.iter().any(|&b| b != a),
        "the seed changes the choices"
    );
}

proptest! {
    #![proptest_config(seeded(200))]

    /// Belady's loads are the exhaustive minimum on small traces.
    #[test]
    fn belady_is_the_exact_minimum(carts in prop::collection::vec(0u32..5, 0..12), drives in 1usize..4) {
        let exact = brute_force_loads(&carts, drives);
        prop_assert_eq!(untimed_loads(&carts, 5, drives, EvictionPolicy::Belady, 1), exact);
    }

    /// No policy beats Belady's floor in the untimed model.
    #[test]
    fn no_policy_beats_the_floor(
        carts in prop::collection::vec(0u32..40, 1..400),
        drives in 1usize..9,
        seed in 0u64..1000,
    ) {
        let floor = untimed_loads(&carts, 40, drives, EvictionPolicy::Belady, seed);
        let distinct = carts.iter().collect::<std::collections::HashSet<_>>().len() as u64;
        prop_assert!(floor >= distinct, "every cartridge is loaded once");
        for p in EvictionPolicy::ALL {
            let loads = untimed_loads(&carts, 40, drives, p, seed);
            prop_assert!(loads >= floor, "{:?}: {} < floor {}", p, loads, floor);
            prop_assert!(loads <= carts.len() as u64);
        }
    }

    /// The timed replay serves every request, unloads everything it
    /// loaded, never waits less than nothing, and repeats itself exactly.
    #[test]
    fn the_timed_replay_accounts_for_every_request(
        reqs in prop::collection::vec((0.0f64..50.0, 0u32..12, 0.0f64..40.0), 1..120),
        drives in 1usize..5,
        delay in prop::sample::select(vec![0.0, 5.0, 60.0, 1e4]),
        policy in prop::sample::select(EvictionPolicy::ALL.to_vec()),
        geometry in any::<bool>(),
    ) {
        let mut t = 0.0;
        let trace = MountTrace {
            time_s: reqs.iter().map(|r| { t += r.0; t }).collect(),
            cartridge: reqs.iter().map(|r| r.1).collect(),
            busy_s: reqs.iter().map(|r| r.2).collect(),
            cartridges: 12,
        };
        let cfg = MountConfig {
            drives,
            dismount: Dismount::Fixed { delay_s: delay },
            eviction: policy,
            placement: if geometry { Placement::NearestFree } else { Placement::Home },
            library: if geometry { Library::Geometry(small_library()) } else { Library::default() },
            ..MountConfig::default()
        };
        let m = replay(&cfg, &trace).unwrap();
        prop_assert_eq!(m.requests, reqs.len() as u64);
        prop_assert_eq!(m.loads, m.unloads);
        // A request that found its cartridge away caused a load, or shared
        // one with an earlier request for it still waiting.
        prop_assert!(m.loads >= 1 && m.loads <= m.requests - m.hits);
        prop_assert!(m.latency_quantiles_s[0] >= 0.0);
        prop_assert!(m.latency_quantiles_s.windows(2).all(|w| w[0] <= w[1]));
        prop_assert!(m.drive_utilisation <= 1.0 && m.robot_utilisation <= 1.0);
        prop_assert_eq!(m, replay(&cfg, &trace).unwrap());
    }
}

/// A two-rail, two-module library with two handbots per rail.
fn small_library() -> Geometry {
    Geometry {
        modules: 2,
        rails: 2,
        handbots_per_rail: 2,
        rail_length_m: 10.0,
        slots_per_rail: 20,
        drives_per_rail: 2,
        drive_zone_m: 1.0,
        speed_m_s: 2.0,
        accel_m_s2: 2.0,
        pick_s: 2.0,
        place_s: 2.0,
        elevators: 1,
        elevator_x_m: 5.0,
        elevator_s: 4.0,
        port_x_m: 9.0,
        port_s: 10.0,
    }
}

fn constant(arms: usize) -> Library {
    Library::Constant {
        arms,
        fetch_s: 10.0,
        return_s: 10.0,
    }
}

fn trace(reqs: &[(f64, u32, f64)]) -> MountTrace {
    MountTrace {
        time_s: reqs.iter().map(|r| r.0).collect(),
        cartridge: reqs.iter().map(|r| r.1).collect(),
        busy_s: reqs.iter().map(|r| r.2).collect(),
        cartridges: reqs.iter().map(|r| r.1 as usize + 1).max().unwrap_or(0),
    }
}

fn one_drive(dismount: Dismount) -> MountConfig {
    MountConfig {
        drives: 1,
        dismount,
        library: constant(1),
        load_s: 5.0,
        unload_s: 5.0,
        ..MountConfig::default()
    }
}

#[test]
fn immediate_dismount_reloads_a_cartridge_asked_for_again() {
    // A at 0 (100 s of reading), A again at 200. The first waits for the
    // fetch (10 s) and the load (5 s); it is unloaded at 115, back at 130;
    // the second waits another fetch and load: 15 s each, two loads.
    let t = trace(&[(0.0, 0, 100.0), (200.0, 0, 10.0)]);
    let m = replay(&one_drive(Dismount::Immediate), &t).unwrap();
    assert_eq!((m.loads, m.unloads, m.hits), (2, 2, 0));
    assert_eq!(m.latency_mean_s, 15.0);
    // A five-minute delay keeps A mounted: the second request waits nothing.
    let m = replay(&one_drive(Dismount::Fixed { delay_s: 300.0 }), &t).unwrap();
    assert_eq!((m.loads, m.hits), (1, 1));
    assert_eq!(m.latency_quantiles_s[..50], [0.0; 50]);
    assert_eq!(m.latency_max_s, 15.0);
}

#[test]
fn an_idle_cartridge_is_evicted_for_a_waiting_one() {
    // A (10 s) is idle from 25 s; B at 100 finds the only drive holding it:
    // A unloads (5 s), the one arm returns it (105-115), then fetches B
    // (115-125), B loads (130): 30 s.
    let t = trace(&[(0.0, 0, 10.0), (100.0, 1, 10.0)]);
    let m = replay(&one_drive(Dismount::Fixed { delay_s: 1000.0 }), &t).unwrap();
    assert_eq!((m.loads, m.evictions), (2, 1));
    assert_eq!(m.latency_max_s, 30.0);
    // Two arms: the fetch need not wait for the return (105-115): 20 s.
    let mut cfg = one_drive(Dismount::Fixed { delay_s: 1000.0 });
    cfg.library = constant(2);
    assert_eq!(replay(&cfg, &t).unwrap().latency_max_s, 20.0);
}

#[test]
fn requests_for_a_busy_cartridge_queue_behind_it() {
    // Two requests for A, the second while the first reads: it waits for
    // the first's end (15 + 100 = 115), without a second load.
    let t = trace(&[(0.0, 0, 100.0), (50.0, 0, 10.0)]);
    let m = replay(&one_drive(Dismount::Immediate), &t).unwrap();
    assert_eq!((m.loads, m.hits), (1, 1));
    assert_eq!(m.latency_max_s, 65.0);
}

#[test]
fn the_adaptive_delay_learns_each_cartridges_gap() {
    // A comes back every 100 s of idleness. With no history it waits 10 s
    // (too short: a second load); having seen a 100 s gap, it waits 200 s
    // and the next two requests are hits.
    let t = trace(&[
        (0.0, 0, 0.0),
        (115.0, 0, 0.0),
        (215.0, 0, 0.0),
        (315.0, 0, 0.0),
    ]);
    let cfg = one_drive(Dismount::Adaptive {
        max_delay_s: 600.0,
        first_delay_s: 10.0,
    });
    let m = replay(&cfg, &t).unwrap();
    assert_eq!((m.loads, m.hits), (2, 2));
    // A gap above the longest wait dismounts at once.
    let cfg = one_drive(Dismount::Adaptive {
        max_delay_s: 50.0,
        first_delay_s: 10.0,
    });
    assert_eq!(replay(&cfg, &t).unwrap().loads, 4);
}

#[test]
fn belady_loads_least_in_the_timed_replay_of_a_cyclic_trace() {
    // Five cartridges in a cycle on four drives: LRU evicts exactly the one
    // needed next (a load every request); Belady keeps three of the four.
    let reqs: Vec<(f64, u32, f64)> = (0..200).map(|i| (i as f64 * 100.0, i % 5, 1.0)).collect();
    let t = trace(&reqs);
    let run = |p| {
        let cfg = MountConfig {
            drives: 4,
            eviction: p,
            dismount: Dismount::Fixed { delay_s: 1e6 },
            ..MountConfig::default()
        };
        replay(&cfg, &t).unwrap().loads
    };
    assert_eq!(run(EvictionPolicy::Lru), 200);
    let belady = run(EvictionPolicy::Belady);
    assert!(belady <= 4 + 200 / 4 + 1, "Belady loaded {belady}");
    let floor = untimed_loads(&t.cartridge, 5, 4, EvictionPolicy::Belady, 1);
    assert_eq!(belady, floor);
}

#[test]
fn travel_follows_the_speed_profile() {
    let g = small_library();
    // 2 m/s top speed reached after 1 m at 2 m/s²: 4 m take 2 + 1 = 3 s,
    // 0.5 m take 2 * sqrt(0.25) = 1 s.
    assert!((g.travel_s(4.0) - 3.0).abs() < 1e-12);
    assert!((g.travel_s(0.5) - 1.0).abs() < 1e-12);
    assert_eq!(g.travel_s(0.0), 0.0);
}

#[test]
fn a_move_to_another_module_and_rail_adds_ports_and_elevators() {
    let g = small_library();
    let mut near = GeometryRobot::new(&g);
    let mut far = GeometryRobot::new(&g);
    // Drive 0 is module 0, rail 0; slot 0 is there too, the last slot is in
    // module 1, rail 1.
    let a = near.fetch(0, 0, 0.0);
    let last = (g.slots() - 1) as u32;
    let b = far.fetch(last, 0, 0.0);
    assert!(b.done >= a.done + g.port_s + g.elevator_s, "{a:?} vs {b:?}");
}

#[test]
fn two_handbots_wait_for_each_other_when_their_paths_cross() {
    // One module, one rail, handbots parked at 2.5 m and 7.5 m. A fetch
    // from the far end to drive 0 takes the right handbot across the whole
    // rail; a fetch from slot 3 (2.575 m, beside the left handbot) asked
    // for at the same moment crosses that span, so the left handbot waits.
    // With one handbot the second move simply queues.
    let mut g = small_library();
    g.modules = 1;
    g.rails = 1;
    let mut one = g;
    one.handbots_per_rail = 1;
    let last = (g.slots_per_rail - 1) as u32;
    let mut two_bots = GeometryRobot::new(&g);
    let far = two_bots.fetch(last, 0, 0.0);
    let near = two_bots.fetch(3, 1, 0.0);
    assert_eq!(two_bots.handbot_waits, 1);
    assert!(near.done > far.done, "{near:?} waited for {far:?}");
    let mut one_bot = GeometryRobot::new(&one);
    one_bot.fetch(last, 0, 0.0);
    one_bot.fetch(3, 1, 0.0);
    assert_eq!((one_bot.handbot_waits, one_bot.handbot_wait_s), (0, 0.0));
}

#[test]
fn nearest_free_brings_hot_cartridges_toward_the_drives() {
    // A cartridge used over and over from a far slot: floating it to the
    // slot nearest the drive shortens every later fetch.
    let reqs: Vec<(f64, u32, f64)> = (0..40)
        .map(|i| (i as f64 * 1000.0, (i % 2) as u32, 1.0))
        .collect();
    let t = trace(&reqs);
    let run = |placement| {
        let cfg = MountConfig {
            drives: 1,
            dismount: Dismount::Immediate,
            placement,
            library: Library::Geometry(small_library()),
            seed: 3,
            ..MountConfig::default()
        };
        replay(&cfg, &t).unwrap().latency_mean_s
    };
    let home = run(Placement::Home);
    let float = run(Placement::NearestFree);
    assert!(float < home, "nearest-free {float} vs home {home}");
    assert!(run(Placement::Promote) < home);
}

#[test]
fn bad_configs_name_the_field() {
    let t = trace(&[(0.0, 0, 1.0)]);
    let mut cfg = MountConfig {
        drives: 0,
        ..MountConfig::default()
    };
    assert!(replay(&cfg, &t).unwrap_err().to_string().contains("drives"));
    cfg.drives = 1;
    cfg.dismount = Dismount::Fixed { delay_s: -1.0 };
    assert!(replay(&cfg, &t)
        .unwrap_err()
        .to_string()
        .contains("dismount.delay_s"));
    cfg.dismount = Dismount::Immediate;
    cfg.placement = Placement::NearestFree;
    assert!(replay(&cfg, &t)
        .unwrap_err()
        .to_string()
        .contains("placement"));
    let mut g = small_library();
    g.handbots_per_rail = 3;
    cfg.library = Library::Geometry(g);
    assert!(replay(&cfg, &t)
        .unwrap_err()
        .to_string()
        .contains("library.handbots_per_rail"));
    let mut g = small_library();
    g.slots_per_rail = 1;
    g.modules = 1;
    g.rails = 1;
    cfg.library = Library::Geometry(g);
    let two = trace(&[(0.0, 0, 1.0), (1.0, 1, 1.0)]);
    assert!(replay(&cfg, &two)
        .unwrap_err()
        .to_string()
        .contains("slots"));
    let backwards = trace(&[(5.0, 0, 1.0), (1.0, 0, 1.0)]);
    assert!(replay(&MountConfig::default(), &backwards)
        .unwrap_err()
        .to_string()
        .contains("request 2"));
}

#[test]
fn bad_traces_name_the_request() {
    let error = |t: &MountTrace| replay(&MountConfig::default(), t).unwrap_err().to_string();
    let mut t = trace(&[(0.0, 0, 1.0), (1.0, 0, 1.0)]);
    t.busy_s.pop();
    assert!(error(&t).contains("differ in length"));
    let mut t = trace(&[(0.0, 0, 1.0), (1.0, 0, 1.0)]);
    t.cartridge[1] = 7;
    assert!(error(&t).contains("request 2") && error(&t).contains("cartridge 7"));
    let t = trace(&[(0.0, 0, 1.0), (1e300, 0, 1.0)]);
    assert!(error(&t).contains("century") && error(&t).contains("1e300"));
    let t = trace(&[(0.0, 0, 1e308)]);
    assert!(error(&t).contains("busy time 1e308"));
    let t = trace(&[(0.0, 0, f64::NAN)]);
    assert!(error(&t).contains("request 1"));
    // The untimed model's own check.
    let drives = check_untimed(&[0], 1, 0).unwrap_err().to_string();
    assert!(drives.contains("drives"), "{drives}");
    let range = check_untimed(&[5], 2, 1).unwrap_err().to_string();
    assert!(range.contains("cartridge 5 outside 0..2"), "{range}");
    assert!(check_untimed(&[1, 0], 2, 1).is_ok());
}
