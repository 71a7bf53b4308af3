//! Errors of the bank engine: impossible shoes and compositions.

use std::fmt;

/// A shoe or composition that cannot exist, or too few cards for what was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BankError {
    /// The cards are not a legal (part of a) two-pack shoe; the text says why.
    InvalidShoe(String),
    /// Fewer cards than the operation needs.
    TooFewCards {
        /// Cards the operation needs.
        needed: usize,
        /// Cards left.
        left: usize,
    },
    /// A parameter out of range (e.g. zero threads).
    InvalidArgument(String),
    /// A JSON record that is malformed or holds an impossible value; the text says why.
    InvalidRecord(String),
}

impl fmt::Display for BankError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BankError::InvalidShoe(msg) | BankError::InvalidArgument(msg) => f.write_str(msg),
            BankError::InvalidRecord(msg) => write!(f, "invalid record: {msg}"),
            BankError::TooFewCards { needed, left } => write!(
                f,
                "impossible shoe state: {left} cards left, at least {needed} are needed"
            ),
        }
    }
}

impl std::error::Error for BankError {}
