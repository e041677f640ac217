//! The core's integration tests in one binary: one link and one copy of the
//! core's generic code instead of one per test file (a clean `./dev test`
//! compiled 17 test binaries; see benchmarks/RESULTS.md, "Test suite time").

mod archive_layouts;
mod archive_sim;
mod assignment;
mod calibration;
mod common;
mod config_shapes;
mod corpus;
mod end_at_bot;
mod fuzz_configs;
mod fuzz_geometry;
mod fuzz_inputs;
mod jm_models;
mod lto;
mod media;
mod media_trace;
mod mounts;
mod recall;
mod schedulers;
mod seek_classes;
mod stop_rules;
mod tape_rest;
