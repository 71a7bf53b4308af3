//! A deal's history as a spectator who holds its record follows it, one frame per step:
//! the replays and the displays of every face (the command line's `match` and `replay`,
//! the protocol's frames) read these, and none replays a deal of its own.

use serde::Serialize;

use super::action::{cards_of, Action};
use super::matches::Match;
use super::state::{DealState, Outcome, Phase, Trick};
use crate::card::{Card, Suit};

/// One step of a deal: the state after it as a spectator who holds the record sees it,
/// both hands face up but never the undrawn talon, with the action that led to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Frame {
    /// The deal's number in its match, from 1 (1 for a lone deal).
    pub deal_number: u64,
    /// The action of this step; `None` for the first frame, the deal as dealt.
    pub action: Option<Action>,
    /// The seat that took the action.
    pub actor: Option<u8>,
    /// The phase of the deal.
    pub phase: Phase,
    /// The seat to move, `None` once the deal is over.
    pub current_player: Option<u8>,
    /// The dealer's seat.
    pub dealer: u8,
    /// The trump suit.
    pub trump: Suit,
    /// The turned-up card.
    pub turn_up: Card,
    /// The seat that drew the turn-up, if anyone did.
    pub turn_up_holder: Option<u8>,
    /// Cards left in the talon.
    pub talon_size: usize,
    /// Exchanges made so far.
    pub exchanges: u8,
    /// The card led to the current trick, if any.
    pub lead: Option<Card>,
    /// Seat 0's hand and seat 1's, each in suit-then-rank order.
    pub hands: [Vec<Card>; 2],
    /// Each seat's discards.
    pub discards: [Vec<Card>; 2],
    /// The finished tricks, in order.
    pub tricks: Vec<Trick>,
    /// Tricks taken by seat 0 and seat 1.
    pub tricks_taken: [u8; 2],
    /// Cards taken by seat 0 and seat 1.
    pub cards_taken: [u8; 2],
    /// The cards each seat drew from the talon in this step, in draw order.
    pub drawn: [Vec<Card>; 2],
    /// The deal's outcome once this step ended it.
    pub outcome: Option<Outcome>,
    /// The match score after this step (zeros outside a match).
    pub score: [u8; 2],
}

impl Frame {
    fn of(
        state: &DealState,
        step: Option<(u8, Action)>,
        drawn: [Vec<Card>; 2],
        deal_number: u64,
        score: [u8; 2],
    ) -> Frame {
        let seats =
            |set: fn(&DealState, u8) -> u32| [0, 1].map(|p| cards_of(set(state, p)).collect());
        Frame {
            deal_number,
            action: step.map(|(_, a)| a),
            actor: step.map(|(p, _)| p),
            phase: state.phase(),
            current_player: state.current_player(),
            dealer: state.dealer(),
            trump: state.trump(),
            turn_up: state.turn_up(),
            turn_up_holder: state.turn_up_holder(),
            talon_size: state.talon_size(),
            exchanges: state.exchanges(),
            lead: state.lead(),
            hands: seats(DealState::hand_set),
            discards: seats(DealState::discard_set),
            tricks: state.tricks().collect(),
            tricks_taken: state.tricks_taken(),
            cards_taken: state.cards_taken(),
            drawn,
            outcome: state.outcome(),
            score,
        }
    }

    /// The frame's JSON record.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl DealState {
    /// Every step of this deal so far: the deal as dealt, then the state after each action.
    /// `deal_number` and `score` place the deal in its match: `score` is the match score
    /// before the deal, and the frame that ends it adds its points. Outside a match
    /// (`score` `None`) the score stays zeros.
    pub fn frames(&self, deal_number: u64, score: Option<[u8; 2]>) -> Vec<Frame> {
        let in_match = score.is_some();
        let score = score.unwrap_or_default();
        let Some(mut state) = self.restart() else {
            return Vec::new();
        };
        let mut frames = Vec::with_capacity(self.actions().count() + 1);
        frames.push(Frame::of(
            &state,
            None,
            Default::default(),
            deal_number,
            score,
        ));
        for action in self.actions() {
            let actor = state.current_player().unwrap_or(0);
            let before = [0, 1].map(|p| state.draws(p).len());
            state.apply_unchecked(action);
            let drawn = [0, 1].map(|p| state.draws(p).split_off(before[p as usize]));
            let mut after = score;
            if let Some(outcome) = state.outcome().filter(|_| in_match) {
                let points = &mut after[outcome.winner as usize];
                *points = points.saturating_add(outcome.points);
            }
            let step = Some((actor, action));
            frames.push(Frame::of(&state, step, drawn, deal_number, after));
        }
        frames
    }
}

impl Match {
    /// The frames of deal `index` (from 0), or of every deal kept when `None`, each with its
    /// deal number and the match score after its step ([`DealState::frames`]). `None` for a
    /// deal the match does not keep.
    pub fn frames(&self, index: Option<usize>) -> Option<Vec<Frame>> {
        let kept: Vec<(usize, &DealState)> = if let Some(k) = index {
            vec![(k, self.deal_at(k)?)]
        } else {
            let last = usize::try_from(self.deal_index()).ok()?;
            let first = last + 1 - self.deals().count();
            (first..).zip(self.deals()).collect()
        };
        let frames = kept
            .into_iter()
            .flat_map(|(k, deal)| deal.frames(k as u64 + 1, Some(self.score_before(k))));
        Some(frames.collect())
    }

    /// The match score before deal `index`: the score now, less the points of the deals
    /// from `index` on that have ended.
    fn score_before(&self, index: usize) -> [u8; 2] {
        let mut score = self.score.score;
        let last = usize::try_from(self.deal_index()).unwrap_or(usize::MAX);
        for deal in (index..=last).filter_map(|k| self.deal_at(k)) {
            if let Some(outcome) = deal.outcome() {
                let points = &mut score[outcome.winner as usize];
                *points = points.saturating_sub(outcome.points);
            }
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::Rules;

    /// A match's frames step through each deal as its own replay does: the actions and
    /// actors of its history, both hands as the deal holds them, the cards drawn at each
    /// step (the talon's next cards), and the score, which moves only with a deal's end.
    #[test]
    fn frames_follow_each_deal_of_a_match() {
        let rules = Rules {
            target: 3,
            ..Rules::default()
        };
        let mut m = Match::new(21, 1, rules).unwrap();
        let mut step = 0usize;
        while !m.is_over() {
            let legal = m.deal.legal_actions();
            m.apply(legal[step * 7 % legal.len()]).unwrap();
            step += 1;
        }
        let frames = m.frames(None).unwrap();
        let deals: Vec<DealState> = m.deals().copied().collect();
        assert_eq!(
            frames.len(),
            deals.iter().map(|d| d.actions().count() + 1).sum::<usize>()
        );
        let mut score = [0u8; 2];
        let mut at = 0;
        for (k, deal) in deals.iter().enumerate() {
            let mut replay = DealState::from_deck(deal.deck(), deal.dealer(), rules).unwrap();
            let own = m.frames(Some(k)).unwrap();
            assert_eq!(own[..], frames[at..at + own.len()]);
            for (i, frame) in own.iter().enumerate() {
                assert_eq!(frame.deal_number, k as u64 + 1);
                if i > 0 {
                    let (actor, action) = deal.moves()[i - 1];
                    assert_eq!((frame.actor, frame.action), (Some(actor), Some(action)));
                    let talon = replay.talon().to_vec();
                    let drawn_before = replay.talon_size();
                    replay.apply(action).unwrap();
                    let drawn: Vec<Card> = frame.drawn.concat();
                    let count = drawn_before - replay.talon_size();
                    assert_eq!(drawn.len(), count);
                    let mut expected = talon[..count].to_vec();
                    let mut got = drawn.clone();
                    expected.sort();
                    got.sort();
                    assert_eq!(got, expected, "the talon's next cards");
                } else {
                    assert_eq!((frame.actor, frame.action), (None, None));
                }
                assert_eq!(frame.hands, [0, 1].map(|p| replay.hand(p)));
                assert_eq!(frame.talon_size, replay.talon_size());
                assert_eq!(frame.outcome, replay.outcome());
                if let Some(outcome) = frame.outcome {
                    score[outcome.winner as usize] += outcome.points;
                }
                assert_eq!(frame.score, score);
            }
            at += own.len();
        }
        assert_eq!(score, m.score.score);
        assert!(m.frames(Some(deals.len())).is_none());
        let lone = deals[0].frames(1, None);
        assert!(lone.iter().all(|f| f.score == [0, 0]));
        assert_eq!(lone.len(), deals[0].actions().count() + 1);
        assert!(lone.iter().all(|f| !f.to_json().contains("talon\"")));
    }
}
