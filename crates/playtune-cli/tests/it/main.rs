//! playtune's integration tests: one test binary (one link of the whole crate, not one
//! a file), one module a subject, most of them driving the real `playtune` binary as a
//! user does. `cargo test --release --test it MODULE::` runs one subject.

mod common;

mod asktell;
mod bounded_and_finite;
mod build_ladder;
mod cli;
mod cli_games;
mod cli_input;
mod concurrency;
mod constraints;
mod damaged_files;
mod design;
mod disk_full;
mod external_game;
mod faults;
mod folder_names;
mod forward_protocol;
mod fuzz;
mod games;
mod ladder_inputs;
mod learned_eval;
mod log_output;
mod messages;
mod newcomer;
mod play_styles_published;
mod readme;
mod reliability;
mod report;
mod rinascimento_reference;
mod safe_to_open;
#[cfg(unix)]
mod signals;
mod slurm;
mod special_files;
mod statistical;
mod tune;
mod typed_settings;
mod validate;
mod workers;
