//! The bank's values as JSON records, read strictly and checked by the engine's own
//! constructors: a deal (versioned, like the duel's deal record) and a resolution (a plain
//! object, like the duel's outcome, which records embed).

use serde::{Deserialize, Serialize};

use super::error::BankError;
use super::resolve::{Outcome, Resolution};
use super::shoe::Deal;
use crate::card::Card;

pub const DEAL_FORMAT: &str = "ecarte.bank.deal";
pub const DEAL_VERSION: u32 = 1;

/// `{"format": "ecarte.bank.deal", "version": 1, "tableaux": [4 × 4 cards], "trump_card": card}`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DealRecord {
    format: String,
    version: u32,
    tableaux: [[Card; 4]; 4],
    trump_card: Card,
}

/// A resolution as its record holds it; the outcome must be the one the tricks give.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResolutionRecord {
    banker_tricks: u8,
    punter_tricks: u8,
    outcome: Outcome,
}

fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, BankError> {
    crate::record::parse(text).map_err(BankError::InvalidRecord)
}

impl Deal {
    /// The deal's versioned record: its four tableaux and the trump card.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&DealRecord {
            format: DEAL_FORMAT.to_string(),
            version: DEAL_VERSION,
            tableaux: self.tableaux,
            trump_card: self.trump_card,
        })
        .unwrap_or_default()
    }

    /// Reads what [`Deal::to_json`] writes: the format and version, 4 tableaux of 4 cards
    /// and a trump card, no card more than twice (as in a two-pack shoe).
    pub fn from_json(text: &str) -> Result<Deal, BankError> {
        let record: DealRecord = parse(text)?;
        crate::record::check_header(&record.format, record.version, DEAL_FORMAT, DEAL_VERSION)
            .map_err(BankError::InvalidRecord)?;
        Deal::new(record.tableaux, record.trump_card)
            .map_err(|e| BankError::InvalidRecord(e.to_string()))
    }
}

impl Resolution {
    /// `{"banker_tricks": b, "punter_tricks": p, "outcome": "banker" | "en_carte" | "punter"}`.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads what [`Resolution::to_json`] writes: tricks that fit a 4-card tableau and the
    /// outcome they give.
    pub fn from_json(text: &str) -> Result<Resolution, BankError> {
        let record: ResolutionRecord = parse(text)?;
        let resolution = Resolution::from_tricks(record.banker_tricks, record.punter_tricks)
            .map_err(|e| BankError::InvalidRecord(e.to_string()))?;
        if resolution.outcome != record.outcome {
            return Err(BankError::InvalidRecord(format!(
                "{} tricks to {} is {}, not {}",
                record.banker_tricks, record.punter_tricks, resolution.outcome, record.outcome
            )));
        }
        Ok(resolution)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bank::{Shoe, DEAL_SIZE, SHOE_SIZE};
    use crate::card::shoe_pack;

    #[test]
    fn a_deal_round_trips_and_a_third_copy_is_refused() {
        let deal = Shoe::new(5).deal();
        assert_eq!(Deal::from_json(&deal.to_json()).unwrap(), deal);
        let mut tableaux = deal.tableaux;
        tableaux[1] = [tableaux[0][0]; 4];
        let bad = Deal {
            tableaux,
            trump_card: deal.trump_card,
        };
        let err = Deal::from_json(&bad.to_json()).unwrap_err();
        assert!(matches!(err, BankError::InvalidRecord(ref m) if m.contains("more than twice")));
    }

    #[test]
    fn a_deal_record_needs_its_header_and_shape() {
        let text = Shoe::new(1).deal().to_json();
        for bad in [
            text.replace("ecarte.bank.deal", "ecarte.duel.deal"),
            text.replace("\"version\":1", "\"version\":2"),
            text.replace("\"version\":1", "\"version\":1,\"extra\":0"),
            text.replacen("],[", "],[\"2C\"],[", 1),
            "[]".to_string(),
        ] {
            assert!(
                matches!(Deal::from_json(&bad), Err(BankError::InvalidRecord(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_resolution_round_trips_and_is_checked() {
        for b in 0..=4 {
            for p in 0..=4 - b {
                let r = Resolution::from_tricks(b, p).unwrap();
                assert_eq!(Resolution::from_json(&r.to_json()).unwrap(), r);
            }
        }
        assert!(Resolution::from_tricks(3, 2).is_err());
        for bad in [
            r#"{"banker_tricks":3,"punter_tricks":2,"outcome":"banker"}"#,
            r#"{"banker_tricks":1,"punter_tricks":0,"outcome":"punter"}"#,
            r#"{"banker_tricks":1,"punter_tricks":0,"outcome":"nobody"}"#,
            r#"{"banker_tricks":-1,"punter_tricks":0,"outcome":"punter"}"#,
            r#"{"banker_tricks":1,"punter_tricks":0}"#,
        ] {
            assert!(
                matches!(Resolution::from_json(bad), Err(BankError::InvalidRecord(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_shoe_state_must_hold_the_whole_shoe() {
        let mut shoe = Shoe::new(3);
        for _ in 0..7 {
            shoe.deal();
        }
        let state = |s: &Shoe| {
            (
                s.undealt().to_vec(),
                s.on_table().to_vec(),
                s.discards().to_vec(),
            )
        };
        let (undealt, table, discards) = state(&shoe);
        let mut again =
            Shoe::from_state(undealt.clone(), table.clone(), discards.clone(), 1, 3).unwrap();
        assert_eq!(again, shoe);
        for _ in 0..10 {
            assert_eq!(again.deal(), shoe.deal()); // through the next run-out
        }
        assert_eq!(again.run_outs(), 2);
        // A card lost, a card added, a table that is not a deal.
        let short = undealt[1..].to_vec();
        assert!(Shoe::from_state(short, table.clone(), discards.clone(), 0, 3).is_err());
        let mut third = undealt.clone();
        third[0] = table[0];
        assert!(Shoe::from_state(third, table.clone(), discards.clone(), 0, 3).is_err());
        let mut moved = undealt.clone();
        moved.push(table[0]);
        assert!(Shoe::from_state(moved, table[1..].to_vec(), discards, 0, 3).is_err());
        assert_eq!(shoe_pack().len(), SHOE_SIZE);
        assert!(Shoe::from_state(shoe_pack(), Vec::new(), Vec::new(), 0, 0).is_ok());
        assert_eq!(table.len(), DEAL_SIZE);
    }
}
