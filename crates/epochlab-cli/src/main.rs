//! `epochlab`: run, compare and list Kafka replication scenarios, and make share links, from the command line.
//!
//! Output is plain ASCII so it can be pasted into a terminal, an issue or a blog post. Bad input exits with
//! status 2 and one line on stderr; violations are results, not errors, and exit 0.

mod check;
mod commands;
mod conformance;
mod grid;
mod lesson;
mod lessons;
mod messages;
mod release;
mod shrink;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use epochlab_core::checker::bounds;

#[derive(Parser)]
#[command(
    name = "epochlab",
    version,
    about = "Replay Kafka partition replication scenarios under each protocol variant"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario file and draw each broker's log, then the verdicts.
    Run {
        /// A contract-v1 scenario file, or `-` for standard input.
        file: String,
        /// A variant to run (repeatable); default: the scenario's configured variant.
        #[arg(long = "variant", short = 'v', value_name = "V")]
        variants: Vec<String>,
        /// Run every variant.
        #[arg(long)]
        all_variants: bool,
        /// Print the contract's JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Draw the logs after this step instead of the last one.
        #[arg(long, value_name = "STEP")]
        at: Option<usize>,
        /// Also list every step with its narration.
        #[arg(long)]
        steps: bool,
        /// Also list the messages (Produce, LeaderAndIsr, Fetch, OffsetsForLeaderEpoch, …) step by step.
        #[arg(long)]
        messages: bool,
        /// Run under a Kafka release (any from 0.10.2 to 4.3: 2.4, 2.8.0, 3.3, 4.0.1 …) instead of a variant,
        /// with the scenario's release settings (inter-broker protocol, ELR, …), read as if the file named it.
        #[arg(long, value_name = "RELEASE", conflicts_with_all = ["variants", "all_variants"])]
        kafka: Option<String>,
        /// The metadata mode: zookeeper (through 3.9) or kraft (2.8 and later; the only one from 4.0). It
        /// needs a release, from --kafka or the file.
        #[arg(long, value_name = "MODE", conflicts_with_all = ["variants", "all_variants"])]
        metadata_mode: Option<String>,
    },
    /// Run a scenario under every Kafka release and say where the outcome changes, and why.
    Bisect {
        /// A scenario file, JSON or text, or `-` for standard input.
        file: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// List the presets, or print one as a scenario file.
    Presets {
        /// A preset id.
        name: Option<String>,
    },
    /// Run a scenario under two or more variants and say where they part ways.
    Compare {
        /// A contract-v1 scenario file, or `-` for standard input.
        file: String,
        /// Variants to compare (at least two).
        #[arg(long = "variant", short = 'v', value_name = "V", required = true)]
        variants: Vec<String>,
    },
    /// Search for the shortest scenario that breaks a variant (breadth-first, within bounds).
    Check {
        /// The variant to check.
        #[arg(long, value_name = "V", required_unless_present = "kafka", conflicts_with = "kafka")]
        variant: Option<String>,
        /// Or a Kafka release (0.10.2 to 4.3), with its rules (the min-ISR HW gate, ELR, …).
        #[arg(long, value_name = "RELEASE")]
        kafka: Option<String>,
        /// With --kafka: the metadata mode, zookeeper or kraft.
        #[arg(long, value_name = "MODE", requires = "kafka")]
        metadata_mode: Option<String>,
        /// Brokers (2 to 4).
        #[arg(long, default_value_t = bounds::BROKERS.default as u8)]
        brokers: u8,
        /// Records a path may append (produce is not offered past this; 1 to 6).
        #[arg(long, default_value_t = bounds::RECORDS.default as u8)]
        records: u8,
        /// The highest leader epoch a path may reach (1 to 10).
        #[arg(long, default_value_t = bounds::EPOCHS.default as i32)]
        epochs: i32,
        /// The longest path (1 to 30).
        #[arg(long, default_value_t = bounds::DEPTH.default as u32)]
        depth: u32,
        /// Unique states at which the search stops.
        #[arg(long, default_value_t = bounds::MAX_STATES.default)]
        max_states: u64,
        /// An invariant to look for (repeatable; default I1 I2 I3 I4 I5 I7 L1).
        #[arg(long = "invariant", value_name = "I")]
        invariants: Vec<String>,
        /// The events offered: default or full.
        #[arg(long, default_value = "default")]
        alphabet: String,
        /// A scenario file whose configuration the search runs under.
        #[arg(long, value_name = "FILE")]
        config: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Shrink a scenario that breaks an invariant to a 1-minimal one, with why each event is needed.
    Shrink {
        /// A contract-v1 scenario file, or `-` for standard input.
        file: String,
        /// The variant (default: the scenario's configured variant).
        #[arg(long, value_name = "V")]
        variant: Option<String>,
        /// The invariant to keep failing (default: the gravest one that fails as a bug, I1 first).
        #[arg(long, value_name = "I")]
        invariant: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Convert a scenario file to canonical text or JSON (JSON and text are told apart by content).
    Fmt {
        /// A scenario file, JSON or text, or `-` for standard input.
        file: String,
        /// The format to write: text or json.
        #[arg(long, default_value = "text")]
        to: String,
    },
    /// Print a share link that opens the scenario in the web playground.
    Link {
        /// A contract-v1 scenario file, or `-` for standard input.
        file: String,
        /// The playground's address; without it only the fragment (`#s=…`) is printed.
        #[arg(long, value_name = "URL")]
        base: Option<String>,
        /// A variant to show (repeatable, 1 to 4); default: the scenario's configured variant.
        #[arg(long = "variant", short = 'v', value_name = "V")]
        variants: Vec<String>,
        /// Open the link with the cursor after this step (default: before the first step).
        #[arg(long, value_name = "N")]
        step: Option<u32>,
    },
    /// List the conformance cases: each test of apache/kafka re-expressed as a scenario, where it holds, where
    /// it fails (the release before the rule it pins), and whether it covers the whole Kafka test.
    Conformance {
        /// Print a JSON array of objects instead of the aligned table.
        #[arg(long)]
        json: bool,
    },
    /// For lesson authors: check a lesson file, or print the address that opens it (docs/lessons.md).
    Lesson {
        #[command(subcommand)]
        action: LessonCommand,
    },
    /// For lesson authors: what the simulator answers and what the facts reader reads in every lesson.
    Lessons {
        #[command(subcommand)]
        listing: Listing,
    },
}

#[derive(Subcommand)]
enum LessonCommand {
    /// Read a lesson file and check it against the simulator, as the page does before it opens one: every
    /// question has an answer, every highlight is in a log, every task's solution passes its check and its
    /// near miss fails it. Prints each question's computed answer, or the first problem with its step.
    Check {
        /// A lesson file (JSON or the lesson text format), or `-` for standard input.
        file: String,
    },
    /// Print the address that opens the lesson in the web playground, the lesson inline (`#lesson=~…`).
    Link {
        /// A lesson file (JSON or the lesson text format), or `-` for standard input.
        file: String,
        /// The playground's address; without it only the fragment (`#lesson=~…`) is printed.
        #[arg(long, value_name = "URL")]
        base: Option<String>,
        /// Open the lesson at this step, counted from 1 as the lesson panel shows it (default: 1).
        #[arg(long, value_name = "N")]
        step: Option<u32>,
        /// The address for an iframe on a blog (`&embed=lesson`): the compact lesson, nothing saved.
        #[arg(long)]
        embed: bool,
    },
    /// Write a lesson in the lesson text format (or as JSON with `--to json`), checked first.
    Fmt {
        /// A lesson file (JSON or the lesson text format), or `-` for standard input.
        file: String,
        /// The form to write: text or json.
        #[arg(long, default_value = "text")]
        to: String,
    },
}

#[derive(Subcommand)]
enum Listing {
    /// Every question of every lesson with the simulator's answer (as the lesson file names answers).
    Answers {
        /// The folder with index.json and the lesson files (default: the source tree's
        /// crates/epochlab-core/lessons).
        dir: Option<String>,
    },
    /// The facts read from every step's words, marked when the step's runs contradict them.
    Facts {
        /// The folder with index.json and the lesson files (default: the source tree's
        /// crates/epochlab-core/lessons).
        dir: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run { file, variants, all_variants, json, at, steps, messages, kafka, metadata_mode } => {
            let shown = commands::Shown { at, steps, messages };
            match (kafka.as_deref(), metadata_mode.as_deref()) {
                (None, None) => commands::run(&file, &variants, all_variants, json, shown),
                (kafka, mode) => release::overrides(kafka, mode).and_then(|o| release::run(&file, &o, json, &shown)),
            }
        }
        Command::Bisect { file, json } => release::bisect_file(&file, json),
        Command::Presets { name } => commands::presets(name.as_deref()),
        Command::Compare { file, variants } => commands::compare(&file, &variants),
        Command::Link { file, base, variants, step } => commands::link(&file, base.as_deref(), &variants, step),
        Command::Fmt { file, to } => commands::fmt(&file, &to),
        Command::Conformance { json } => conformance::table(json),
        Command::Lesson { action: LessonCommand::Check { file } } => lesson::check(&file),
        Command::Lesson { action: LessonCommand::Link { file, base, step, embed } } => {
            lesson::link(&file, base.as_deref(), step, embed)
        }
        Command::Lesson { action: LessonCommand::Fmt { file, to } } => lesson::fmt(&file, &to),
        Command::Lessons { listing: Listing::Answers { dir } } => {
            lessons::answers(dir.as_deref().unwrap_or(lessons::DEFAULT_DIR))
        }
        Command::Lessons { listing: Listing::Facts { dir } } => {
            lessons::facts(dir.as_deref().unwrap_or(lessons::DEFAULT_DIR))
        }
        Command::Shrink { file, variant, invariant, json } => {
            shrink::run(&file, variant.as_deref(), invariant.as_deref(), json)
        }
        Command::Check {
            variant,
            kafka,
            metadata_mode,
            brokers,
            records,
            epochs,
            depth,
            max_states,
            invariants,
            alphabet,
            config,
            json,
        } => {
            let searched = check::Searched { variant, kafka, metadata_mode };
            let bounds =
                check::Bounds { searched, brokers, records, epochs, depth, max_states, invariants, alphabet, config };
            check::run(&bounds, json)
        }
    };
    match result {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("epochlab: {message}");
            ExitCode::from(2)
        }
    }
}
