//! What a lesson cites, shown under "Read more" at its end: a KIP, a JIRA, or a file of Kafka's source at a
//! release tag (`core/src/main/scala/kafka/cluster/Partition.scala@3.7.0`), each with the address it opens.

use std::fmt;

/// One citation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A Kafka Improvement Proposal, by number.
    Kip(u16),
    /// A JIRA issue: `KAFKA-7415`.
    Jira(u32),
    /// A file of apache/kafka at a release tag.
    File {
        /// The path in the repository.
        path: String,
        /// The tag: `3.7.0`.
        tag: String,
    },
}

/// The KIPs the lessons cite, with their wiki titles (the wiki addresses a page by its title).
const KIP_TITLES: [(u16, &str); 6] = [
    (101, "Alter Replication Protocol to use Leader Epoch rather than High Watermark for Truncation"),
    (279, "Fix log divergence between leader and follower after fast leader fail over"),
    (320, "Allow fetchers to detect and handle log truncation"),
    (380, "Detect outdated control requests and bounced brokers using broker generation"),
    (595, "A Raft Protocol for the Metadata Quorum"),
    (966, "Eligible Leader Replicas"),
];

impl Source {
    /// `KIP-101`, `KAFKA-7415` or `path@tag`; anything else is refused with the forms it accepts.
    pub fn parse(cite: &str) -> Result<Source, String> {
        if let Some(n) = cite.strip_prefix("KIP-").and_then(|rest| rest.parse::<u16>().ok()) {
            return (!kip_title(n).is_empty())
                .then_some(Source::Kip(n))
                .ok_or(format!("KIP-{n} is not one the lessons know the title of (add it to KIP_TITLES)"));
        }
        if let Some(n) = cite.strip_prefix("KAFKA-").and_then(|rest| rest.parse::<u32>().ok()).filter(|n| *n > 0) {
            return Ok(Source::Jira(n));
        }
        match cite.split_once('@') {
            Some((path, tag)) if is_path(path) && is_tag(tag) => {
                Ok(Source::File { path: path.to_string(), tag: tag.to_string() })
            }
            _ => Err(format!("\"{cite}\" is not a source: write KIP-101, KAFKA-7415 or path/in/kafka.scala@3.7.0")),
        }
    }

    /// The citation as a lesson file writes it: `KIP-101`, `KAFKA-7415` or `path@tag`.
    pub fn cite(&self) -> String {
        match self {
            Source::Kip(n) => format!("KIP-{n}"),
            Source::Jira(n) => format!("KAFKA-{n}"),
            Source::File { path, tag } => format!("{path}@{tag}"),
        }
    }

    /// Where it is read.
    pub fn url(&self) -> String {
        match self {
            Source::Kip(n) => {
                format!(
                    "https://cwiki.apache.org/confluence/display/KAFKA/KIP-{n}+-+{}",
                    kip_title(*n).replace(' ', "+")
                )
            }
            Source::Jira(n) => format!("https://issues.apache.org/jira/browse/KAFKA-{n}"),
            Source::File { path, tag } => format!("https://github.com/apache/kafka/blob/{tag}/{path}"),
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Kip(n) => write!(f, "KIP-{n}: {}", kip_title(*n)),
            Source::Jira(n) => write!(f, "KAFKA-{n}"),
            Source::File { path, tag } => write!(f, "{path} at Kafka {tag}"),
        }
    }
}

/// A known KIP's title ("" for one the lessons do not cite).
fn kip_title(n: u16) -> &'static str {
    KIP_TITLES.iter().find(|(k, _)| *k == n).map_or("", |(_, t)| t)
}

fn is_path(path: &str) -> bool {
    path.contains('/') && path.chars().all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c)) && !path.contains("..")
}

fn is_tag(tag: &str) -> bool {
    let parts: Vec<&str> = tag.split('.').collect();
    (3..=4).contains(&parts.len()) && parts.iter().all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::Source;

    #[test]
    fn each_form_parses_to_its_address_and_anything_else_is_refused() {
        let kip = Source::parse("KIP-966").unwrap();
        assert_eq!(kip.url(), "https://cwiki.apache.org/confluence/display/KAFKA/KIP-966+-+Eligible+Leader+Replicas");
        assert_eq!(Source::parse("KAFKA-15583").unwrap().url(), "https://issues.apache.org/jira/browse/KAFKA-15583");
        let file = Source::parse("core/src/main/scala/kafka/cluster/Partition.scala@3.7.0").unwrap();
        assert_eq!(
            file.url(),
            "https://github.com/apache/kafka/blob/3.7.0/core/src/main/scala/kafka/cluster/Partition.scala"
        );
        assert_eq!(file.to_string(), "core/src/main/scala/kafka/cluster/Partition.scala at Kafka 3.7.0");
        for bad in ["KIP-9999", "KAFKA-", "kafka-1", "Partition.scala@3.7.0", "a/b.scala@trunk", "../x/y@1.0.0", ""] {
            assert!(Source::parse(bad).is_err(), "{bad}");
        }
    }
}
