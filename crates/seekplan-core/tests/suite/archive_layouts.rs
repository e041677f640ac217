//! Every layout is recoverable: real bytes placed where the policy says,
//! real Reed-Solomon EC, any Y tapes erased, every file rebuilt bit-exact.
//! Stripe membership is re-derived here from the paper's definitions, so the
//! test checks the layouts rather than repeating them.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reed_solomon_erasure::galois_8::ReedSolomon;
use seekplan_core::archive::{
    Content, FileSpec, Piece, Policy, Scheme, TapeId, Tapes, Unit, Writer,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Bytes stored on each cartridge: offset -> (physical length, payload).
type Images = HashMap<TapeId, BTreeMap<u64, (u64, Vec<u8>)>>;

fn parity(x: usize, y: usize, data: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let len = data.iter().map(Vec::len).max().unwrap_or(0);
    let mut shards: Vec<Vec<u8>> = data
        .iter()
        .map(|d| {
            let mut v = d.clone();
            v.resize(len, 0);
            v
        })
        .collect();
    if y == 0 || len == 0 {
        return vec![vec![0; len]; y];
    }
    shards.extend((0..y).map(|_| vec![0u8; len]));
    ReedSolomon::new(x, y).unwrap().encode(&mut shards).unwrap();
    shards.split_off(x)
}

fn rebuild(x: usize, y: usize, mut shards: Vec<Option<Vec<u8>>>) -> Vec<Vec<u8>> {
    if shards.iter().take(x).all(Option::is_some) || y == 0 {
        return shards
            .into_iter()
            .take(x)
            .map(|s| s.expect("no EC, nothing erased"))
            .collect();
    }
    ReedSolomon::new(x, y)
        .unwrap()
        .reconstruct_data(&mut shards)
        .expect("at most Y shards lost");
    shards.into_iter().take(x).map(Option::unwrap).collect()
}

/// The data blocks (as block indices) of stripe/step `k` of a striped file.
fn stripe_blocks(policy: Policy, x: u64, nblocks: u64, k: u64) -> Vec<Option<u64>> {
    match policy {
        Policy::Rait => (0..x)
            .map(|i| Some(k * x + i).filter(|&d| d < nblocks))
            .collect(),
        _ => {
            let (q, r) = (nblocks / x, nblocks % x);
            (0..x)
                .map(|i| {
                    let size = q + u64::from(i < r);
                    (k < size).then(|| i * q + i.min(r) + k)
                })
                .collect()
        }
    }
}

fn store(images: &mut Images, cap: u64, tape: TapeId, offset: u64, phys: u64, bytes: Vec<u8>) {
    assert!(offset + phys <= cap, "record past the end of tape {tape:?}");
    let img = images.entry(tape).or_default();
    if let Some((&o, &(p, _))) = img.range(..offset + phys.max(1)).next_back() {
        assert!(
            o + p <= offset || o == offset && p == 0,
            "records overlap on {tape:?}"
        );
    }
    img.insert(offset, (phys, bytes));
}

#[derive(Clone, Debug)]
struct Case {
    policy: Policy,
    scheme: Scheme,
    block: u64,
    cap: u64,
    files: Vec<(FileSpec, Vec<u8>)>,
    erase_seed: u64,
}

fn check(case: Case) {
    let Case {
        policy,
        scheme,
        block,
        cap,
        files,
        erase_seed,
    } = case;
    let (x, y) = (scheme.x as usize, scheme.y as usize);
    let mut tapes = Tapes::new(cap).unwrap();
    let mut writer = Writer::new(policy, scheme, block).unwrap();
    let mut images = Images::new();
    let mut written: Vec<Vec<Piece>> = Vec::new();
    for (spec, _) in &files {
        written.push(writer.write(spec, &mut tapes).unwrap());
    }
    let tail = writer.close(&mut tapes);

    // Place the bytes.
    let mut streams: BTreeMap<(u64, u32), (TapeId, Vec<u8>)> = BTreeMap::new();
    for ((spec, bytes), pieces) in files.iter().zip(&written) {
        let nblocks = spec.bytes.div_ceil(block);
        let blk = |d: u64| {
            bytes[(d * block) as usize..(((d + 1) * block).min(spec.bytes)) as usize].to_vec()
        };
        for p in pieces {
            assert!(p.offset + p.phys <= cap);
            if let Content::VerticalData {
                start,
                len,
                group,
                index,
                stream_offset,
            } = p.content
            {
                let payload = bytes[start as usize..(start + len) as usize].to_vec();
                let s = streams
                    .entry((group, index))
                    .or_insert((p.tape, Vec::new()));
                assert_eq!(s.0, p.tape, "a data tape of a group is one cartridge");
                assert_eq!(
                    s.1.len() as u64,
                    stream_offset,
                    "data is contiguous on its tape"
                );
                s.1.extend_from_slice(&payload);
                store(&mut images, cap, p.tape, p.offset, p.phys, payload);
                continue;
            }
            if matches!(p.content, Content::VerticalEc { .. }) {
                continue;
            }
            let recs = writer.records(spec, p);
            assert_eq!(
                recs.iter().map(|r| r.phys).sum::<u64>(),
                p.phys,
                "piece size is its units' sum"
            );
            for r in recs {
                let payload = match r.unit {
                    Unit::Data { start, len } => {
                        bytes[start as usize..(start + len) as usize].to_vec()
                    }
                    Unit::Ec { row, stripe, len } => {
                        let data: Vec<Vec<u8>> =
                            stripe_blocks(policy, scheme.x.into(), nblocks, stripe)
                                .into_iter()
                                .map(|d| d.map(blk).unwrap_or_default())
                                .collect();
                        let ec = parity(x, y, &data);
                        assert_eq!(
                            ec[row as usize].len() as u64,
                            len,
                            "EC block is as long as the stripe"
                        );
                        ec[row as usize].clone()
                    }
                };
                store(&mut images, cap, p.tape, r.offset, r.phys, payload);
            }
        }
    }
    let mut group_ec: HashMap<(u64, u32), Vec<(TapeId, u64)>> = HashMap::new();
    let vertical_ec: Vec<&Piece> = written
        .iter()
        .flatten()
        .chain(&tail)
        .filter(|p| matches!(p.content, Content::VerticalEc { .. }))
        .collect();
    for p in &vertical_ec {
        let Content::VerticalEc {
            group,
            row,
            start,
            len,
        } = p.content
        else {
            unreachable!()
        };
        let data: Vec<Vec<u8>> = (0..x as u32)
            .map(|i| {
                streams
                    .get(&(group, i))
                    .map(|s| s.1.clone())
                    .unwrap_or_default()
            })
            .collect();
        let ec = parity(x, y, &data);
        let payload = ec[row as usize][start as usize..(start + len) as usize].to_vec();
        store(&mut images, cap, p.tape, p.offset, p.phys, payload);
        group_ec
            .entry((group, row))
            .or_default()
            .push((p.tape, start));
    }

    // Erase Y tapes.
    let used: Vec<TapeId> = images
        .keys()
        .copied()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(erase_seed);
    let mut erased = BTreeSet::new();
    while erased.len() < y.min(used.len()) {
        erased.insert(used[rng.gen_range(0..used.len())]);
    }
    for t in &erased {
        images.remove(t);
    }
    let read = |t: TapeId, offset: u64| {
        images
            .get(&t)
            .and_then(|img| img.get(&offset))
            .map(|r| r.1.clone())
    };

    // Rebuild every file from what survives.
    for ((spec, bytes), pieces) in files.iter().zip(&written) {
        let mut out = vec![0u8; spec.bytes as usize];
        if policy == Policy::Vertical {
            let mut cache: HashMap<u64, Vec<Vec<u8>>> = HashMap::new();
            for p in pieces {
                let Content::VerticalData {
                    start,
                    len,
                    group,
                    index,
                    stream_offset,
                } = p.content
                else {
                    continue;
                };
                let got = read(p.tape, p.offset).unwrap_or_else(|| {
                    let rebuilt = cache.entry(group).or_insert_with(|| {
                        let mut shards: Vec<Option<Vec<u8>>> = (0..x as u32)
                            .map(|i| match streams.get(&(group, i)) {
                                None => Some(Vec::new()),
                                Some((t, _)) => images
                                    .get(t)
                                    .map(|img| img.values().flat_map(|r| r.1.clone()).collect()),
                            })
                            .collect();
                        let width = shards.iter().flatten().map(Vec::len).max().unwrap_or(0);
                        for row in 0..y as u32 {
                            let parts = &group_ec[&(group, row)];
                            let row_bytes: Option<Vec<u8>> = parts
                                .iter()
                                .map(|&(t, _)| read(t, 0))
                                .collect::<Option<Vec<_>>>()
                                .map(|v| v.concat());
                            shards.push(row_bytes);
                        }
                        let width =
                            width.max(shards.iter().flatten().map(Vec::len).max().unwrap_or(0));
                        for s in shards.iter_mut().flatten() {
                            s.resize(width, 0);
                        }
                        rebuild(x, y, shards)
                    });
                    rebuilt[index as usize][stream_offset as usize..(stream_offset + len) as usize]
                        .to_vec()
                });
                out[start as usize..(start + len) as usize].copy_from_slice(&got);
            }
        } else {
            let nblocks = spec.bytes.div_ceil(block);
            // (stripe, shard) -> bytes, from surviving records.
            let mut data_at: HashMap<u64, Vec<u8>> = HashMap::new();
            let mut ec_at: HashMap<(u64, u32), Vec<u8>> = HashMap::new();
            for p in pieces {
                for r in writer.records(spec, p) {
                    let Some(b) = read(p.tape, r.offset) else {
                        continue;
                    };
                    match r.unit {
                        Unit::Data { start, .. } => {
                            data_at.insert(start / block, b);
                        }
                        Unit::Ec { row, stripe, .. } => {
                            ec_at.insert((stripe, row), b);
                        }
                    }
                }
            }
            let stripes = nblocks.div_ceil(scheme.x.into());
            for k in 0..stripes {
                let members = stripe_blocks(policy, scheme.x.into(), nblocks, k);
                let width = members
                    .iter()
                    .flatten()
                    .map(|&d| ((d + 1) * block).min(spec.bytes) - d * block)
                    .max()
                    .unwrap() as usize;
                let mut shards: Vec<Option<Vec<u8>>> = members
                    .iter()
                    .map(|m| match m {
                        None => Some(vec![0; width]),
                        Some(d) => data_at.get(d).map(|b| {
                            let mut v = b.clone();
                            v.resize(width, 0);
                            v
                        }),
                    })
                    .collect();
                shards.extend((0..y as u32).map(|row| ec_at.get(&(k, row)).cloned()));
                let blocks = rebuild(x, y, shards);
                for (m, b) in members.iter().zip(blocks) {
                    if let Some(d) = m {
                        let (s, e) = (d * block, ((d + 1) * block).min(spec.bytes));
                        out[s as usize..e as usize].copy_from_slice(&b[..(e - s) as usize]);
                    }
                }
            }
        }
        assert!(
            out == *bytes,
            "{policy:?} {scheme}: file not rebuilt bit-exact after erasing {erased:?}"
        );
    }
}

const SCHEMES: [(u32, u32); 8] = [
    (1, 0),
    (2, 1),
    (3, 1),
    (3, 2),
    (4, 1),
    (4, 2),
    (6, 2),
    (8, 2),
];

fn case() -> impl Strategy<Value = Case> {
    (
        0usize..3,
        0usize..SCHEMES.len(),
        1u64..48,
        48u64..400,
        prop::collection::vec((1u64..2500, 1.0f64..3.0, 0.0f64..1.0, any::<u64>()), 1..4),
        any::<u64>(),
    )
        .prop_map(|(p, s, block, cap, files, erase_seed)| Case {
            policy: [Policy::Rait, Policy::Parallel, Policy::Vertical][p],
            scheme: Scheme::new(SCHEMES[s].0, SCHEMES[s].1).unwrap(),
            block,
            cap: cap.max(block * 3),
            files: files
                .into_iter()
                .map(|(bytes, cd, frac, seed)| {
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    let data: Vec<u8> = (0..bytes).map(|_| rng.gen()).collect();
                    let spec = FileSpec {
                        bytes,
                        data_compression: cd,
                        ec_compression: 1.0 + frac * (cd - 1.0),
                    };
                    (spec, data)
                })
                .collect(),
            erase_seed,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]
    #[test]
    fn any_y_tapes_lost_every_file_rebuilt(c in case()) {
        check(c);
    }
}

/// EC compresses worse than data, so PARALLEL's EC tapes fill first and are
/// replaced alone (section 4.2, Figure 2b).
#[test]
fn parallel_ec_tapes_fill_before_data_tapes() {
    let mut tapes = Tapes::new(1000).unwrap();
    let scheme = Scheme::new(4, 1).unwrap();
    let mut w = Writer::new(Policy::Parallel, scheme, 30).unwrap();
    let f = FileSpec {
        bytes: 4 * 30 * 90,
        data_compression: 3.0,
        ec_compression: 1.0,
    };
    let pieces = w.write(&f, &mut tapes).unwrap();
    let per_slot = |slot: u32| {
        pieces
            .iter()
            .filter(|p| p.slot == slot)
            .map(|p| p.tape)
            .collect::<BTreeSet<_>>()
            .len()
    };
    assert_eq!(
        per_slot(0),
        1,
        "data fits on one tape per drive: 90 blocks of 10 bytes"
    );
    assert_eq!(
        per_slot(4),
        3,
        "EC needs 90 blocks of 30 bytes: three tapes"
    );
}

/// VERTICAL fills X data tapes before writing EC, on one drive.
#[test]
fn vertical_writes_ec_after_x_data_tapes() {
    let mut tapes = Tapes::new(100).unwrap();
    let mut w = Writer::new(Policy::Vertical, Scheme::new(2, 1).unwrap(), 1).unwrap();
    let f = FileSpec {
        bytes: 250,
        data_compression: 1.0,
        ec_compression: 1.0,
    };
    let pieces = w.write(&f, &mut tapes).unwrap();
    let kinds: Vec<&str> = pieces
        .iter()
        .map(|p| match p.content {
            Content::VerticalData { .. } => "d",
            _ => "e",
        })
        .collect();
    assert_eq!(kinds, ["d", "d", "e", "d"]);
    assert!(pieces.iter().all(|p| p.slot == 0));
    assert_eq!(
        w.close(&mut tapes).len(),
        1,
        "closing writes the open group's EC"
    );
}

/// RAIT rotates: over X+Y stripes each drive holds X data and Y EC blocks.
#[test]
fn rait_rotates_ec_over_all_drives() {
    let mut tapes = Tapes::new(10_000).unwrap();
    let s = Scheme::new(4, 1).unwrap();
    let mut w = Writer::new(Policy::Rait, s, 10).unwrap();
    let f = FileSpec {
        bytes: 10 * 4 * 5,
        data_compression: 1.0,
        ec_compression: 1.0,
    };
    let pieces = w.write(&f, &mut tapes).unwrap();
    for p in &pieces {
        let recs = w.records(&f, p);
        let ec = recs
            .iter()
            .filter(|r| matches!(r.unit, Unit::Ec { .. }))
            .count();
        assert_eq!((recs.len(), ec), (5, 1), "slot {}", p.slot);
    }
}
