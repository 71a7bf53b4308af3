//! Match scoring: points per deal to a target, with the dealer alternating every deal.

use super::state::Outcome;

/// The running score of a duel match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchScore {
    pub score: [u8; 2],
    pub target: u8,
    pub first_dealer: u8,
    pub deals: u32,
}

impl MatchScore {
    pub fn new(target: u8, first_dealer: u8) -> MatchScore {
        MatchScore {
            score: [0, 0],
            target,
            first_dealer: first_dealer & 1,
            deals: 0,
        }
    }

    /// The dealer of the next deal: the first dealer, then alternating.
    pub fn next_dealer(&self) -> u8 {
        ((u32::from(self.first_dealer) + self.deals) % 2) as u8
    }

    /// Adds a finished deal's points.
    pub fn record(&mut self, outcome: &Outcome) {
        let s = &mut self.score[outcome.winner as usize];
        *s = s.saturating_add(outcome.points);
        self.deals += 1;
    }

    /// The seat that reached the target, if any.
    pub fn winner(&self) -> Option<u8> {
        (0..2).find(|&p| self.score[p as usize] >= self.target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::{DealState, Rules};

    #[test]
    fn the_match_ends_at_the_target_with_the_dealer_alternating() {
        let rules = Rules::default();
        let mut m = MatchScore::new(rules.target, 1);
        let mut seed = 0;
        while m.winner().is_none() {
            let dealer = m.next_dealer();
            assert_eq!(u32::from(dealer), (1 + m.deals) % 2);
            let mut s = DealState::from_seed(seed, dealer, rules).unwrap();
            while !s.is_over() {
                s.apply_unchecked(s.legal_actions()[0]);
            }
            let before = m.score;
            m.record(&s.outcome().unwrap());
            assert_eq!(
                u32::from(m.score[0] + m.score[1]),
                u32::from(before[0] + before[1]) + u32::from(s.outcome().unwrap().points)
            );
            seed += 1;
        }
        let w = m.winner().unwrap();
        assert!(m.score[w as usize] >= 7);
        assert!(m.score[1 - w as usize] < 7);
    }

    #[test]
    fn no_winner_below_the_target() {
        let m = MatchScore {
            score: [6, 6],
            target: 7,
            first_dealer: 0,
            deals: 10,
        };
        assert_eq!(m.winner(), None);
    }
}
