//! The match: deals to a target score, the dealer alternating every deal, deal `i` of the
//! match with seed `s` shuffled with `derive_seed(s, i)`. Every path that plays matches
//! (the Python `Match`, batch simulation, the vector environment) deals through
//! [`match_deal`] and scores through [`MatchScore`].

use super::action::Action;
use super::observe::Observation;
use super::refusal::{Reason, ReasonCode, Refusal};
use super::rules::Rules;
use super::state::{DealState, DuelError, Outcome};
use crate::rng::{rng_from_seed, GameRng, SeedDeriver};

/// Deal `index` of the match with seed `seed` whose first dealer is `first_dealer`.
pub fn match_deal(
    seed: u64,
    first_dealer: u8,
    index: u64,
    rules: Rules,
) -> Result<DealState, DuelError> {
    match_deal_with(&SeedDeriver::new(seed), first_dealer, index, rules)
}

/// [`match_deal`] with the match seed's key already expanded (batch play).
pub fn match_deal_with(
    seed: &SeedDeriver,
    first_dealer: u8,
    index: u64,
    rules: Rules,
) -> Result<DealState, DuelError> {
    match_deal_shuffled_by(
        &mut rng_from_seed(seed.derive(index)),
        first_dealer,
        index,
        rules,
    )
}

/// [`match_deal_with`] with the deal's generator already made: `rng` must be a fresh
/// `rng_from_seed(derive_seed(seed, index))` (batch play makes many at once).
pub fn match_deal_shuffled_by(
    rng: &mut GameRng,
    first_dealer: u8,
    index: u64,
    rules: Rules,
) -> Result<DealState, DuelError> {
    let dealer = ((u64::from(first_dealer & 1) + index) % 2) as u8;
    DealState::shuffled_by(rng, dealer, rules)
}

/// The running score of a duel match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchScore {
    /// Points of seat 0 and seat 1.
    pub score: [u8; 2],
    /// The points that win the match.
    pub target: u8,
    /// The dealer of the first deal.
    pub first_dealer: u8,
    /// Deals finished so far.
    pub deals: u64,
}

impl MatchScore {
    /// A score of 0–0 for a match to `target` whose first deal `first_dealer` deals.
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
        ((u64::from(self.first_dealer) + self.deals) % 2) as u8
    }

    /// Adds a finished deal's points.
    pub fn record(&mut self, outcome: &Outcome) {
        let s = &mut self.score[outcome.winner as usize];
        *s = s.saturating_add(outcome.points);
        self.deals = self.deals.saturating_add(1);
    }

    /// The seat that reached the target, if any.
    pub fn winner(&self) -> Option<u8> {
        (0..2).find(|&p| self.score[p as usize] >= self.target)
    }
}

/// A match in play: its seed, the running score, the deal in progress and the finished
/// deals before it. Applying the action that ends a deal scores it and deals the next,
/// unless the match is over. The one history of a match: records, display and replay read
/// it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    /// The match's seed: deal `i` is shuffled with a seed derived from it and `i`.
    pub seed: u64,
    /// The rules of every deal.
    pub rules: Rules,
    /// The running score.
    pub score: MatchScore,
    /// The deal in progress (the last one, finished, once the match is over).
    pub deal: DealState,
    /// The finished deals before [`Match::deal`], oldest first, as far as `history` keeps
    /// them.
    earlier: Vec<DealState>,
    history: History,
    /// A match without end (no target): the vector env's stream of deals.
    endless: bool,
}

/// How much of its finished deals a match keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum History {
    /// Every finished deal: records, replays and display read them.
    All,
    /// The last finished deal only: environments show it once more after it ends.
    Last,
    /// None: the vector env, which steps a million matches at once.
    Nothing,
}

impl Match {
    /// A new match with seed `seed` to the rules' target, `first_dealer` (0 or 1) dealing first.
    pub fn new(seed: u64, first_dealer: u8, rules: Rules) -> Result<Match, DuelError> {
        if first_dealer > 1 {
            return Err(DuelError::InvalidDealer(i64::from(first_dealer)));
        }
        rules.validate().map_err(DuelError::InvalidRules)?;
        Ok(Match {
            seed,
            rules,
            score: MatchScore::new(rules.target, first_dealer),
            deal: match_deal(seed, first_dealer, 0, rules)?,
            earlier: Vec::new(),
            history: History::All,
            endless: false,
        })
    }

    /// A match without history taken up at deal `index` (from 0), the score before it being
    /// `score`, with `actions` of that deal replayed (each checked): how an environment
    /// that keeps no history is rebuilt from its record. The score must be one that `index`
    /// finished deals can give (each deal is worth 1 or 2 points) with neither seat at the
    /// target.
    pub fn resume(
        seed: u64,
        first_dealer: u8,
        rules: Rules,
        score: [u8; 2],
        index: u64,
        actions: &[Action],
    ) -> Result<Match, DuelError> {
        let mut game = Match::new(seed, first_dealer, rules)?.without_history();
        let points = u64::from(score[0]) + u64::from(score[1]);
        let possible = index
            .checked_mul(2)
            .is_some_and(|most| (index..=most).contains(&points));
        let bad = |why: String| DuelError::InvalidRecord(why);
        if !possible || score.iter().any(|&s| s >= rules.target) {
            return Err(bad(format!(
                "a match score of {}-{} after {index} deals (to {}) cannot be",
                score[0], score[1], rules.target
            )));
        }
        game.score.score = score;
        game.score.deals = index;
        game.deal = match_deal(seed, first_dealer, index, rules)?;
        for (i, &action) in actions.iter().enumerate() {
            game.apply(action)
                .map_err(|e| bad(format!("action {}: {e}", i + 1)))?;
        }
        Ok(game)
    }

    /// A match with seed `seed` and first dealer 0 that never ends and keeps no history:
    /// its deals, scored, for the vector env, whose rewards are each deal's points.
    pub fn endless(seed: u64, rules: Rules) -> Result<Match, DuelError> {
        let mut game = Match::new(seed, 0, rules)?;
        (game.history, game.endless) = (History::Nothing, true);
        Ok(game)
    }

    /// This match without the finished deals' history: environments that play match after
    /// match keep only the deal in progress, the last finished deal and the score.
    #[must_use]
    pub fn without_history(mut self) -> Match {
        self.history = History::Last;
        let last = self.earlier.pop();
        self.earlier.clear();
        self.earlier.extend(last);
        self
    }

    /// The index of the deal in progress (from 0).
    pub fn deal_index(&self) -> u64 {
        self.score.deals - u64::from(self.is_over())
    }

    /// Deal `index` (from 0) as played so far: a finished deal, or the deal in progress.
    /// `None` past the deal in progress, or for a finished deal of a match that keeps no
    /// history.
    pub fn deal_at(&self, index: usize) -> Option<&DealState> {
        let current = usize::try_from(self.deal_index()).ok()?;
        match index.cmp(&current) {
            std::cmp::Ordering::Equal => Some(&self.deal),
            std::cmp::Ordering::Greater => None,
            std::cmp::Ordering::Less => match self.history {
                History::All => self.earlier.get(index),
                History::Last => self.earlier.last().filter(|_| index + 1 == current),
                History::Nothing => None,
            },
        }
    }

    /// The deal that ended last: the deal in progress once the match is over, the one
    /// before it otherwise; `None` before any deal has ended.
    pub fn last_finished(&self) -> Option<&DealState> {
        if self.is_over() {
            Some(&self.deal)
        } else {
            self.earlier.last()
        }
    }

    /// Every deal so far, oldest first, the deal in progress last (of a match without
    /// history: the last finished deal and the deal in progress).
    pub fn deals(&self) -> impl Iterator<Item = &DealState> + '_ {
        self.earlier.iter().chain(std::iter::once(&self.deal))
    }

    /// The outcome of every finished deal, in order.
    pub fn outcomes(&self) -> impl Iterator<Item = Outcome> + '_ {
        self.deals().filter_map(DealState::outcome)
    }

    /// The seat that won the match, if it is over.
    pub fn winner(&self) -> Option<u8> {
        if self.endless {
            return None;
        }
        self.score.winner()
    }

    /// Whether a seat has reached the target.
    pub fn is_over(&self) -> bool {
        self.winner().is_some()
    }

    /// The player to move, `None` once the match is over.
    pub fn current_player(&self) -> Option<u8> {
        if self.is_over() {
            None
        } else {
            self.deal.current_player()
        }
    }

    /// What `player` may know of the deal in progress, with the match score.
    pub fn observation(&self, player: u8) -> Observation {
        self.deal.observation(player, self.score.score)
    }

    /// Applies a legal action to the deal in progress; refused, with nothing changed, when
    /// illegal or when the match is over. Returns the outcome of a deal it ends.
    pub fn apply(&mut self, action: Action) -> Result<Option<Outcome>, DuelError> {
        self.apply_by(None, action)
    }

    /// [`Match::apply`] for an action taken by `player`: refused as `not_your_turn` when
    /// `player` is not to move (`None`: whoever is to move).
    pub fn apply_by(
        &mut self,
        player: Option<u8>,
        action: Action,
    ) -> Result<Option<Outcome>, DuelError> {
        if let Some(refusal) = self.refusal(player, action) {
            return Err(DuelError::IllegalAction(Box::new(refusal)));
        }
        self.deal.apply_unchecked(action);
        self.finish_deal()
    }

    /// Why `player` (`None`: whoever is to move) may not take `action` now; `None` when the
    /// action is legal.
    pub fn refusal(&self, player: Option<u8>, action: Action) -> Option<Refusal> {
        if self.is_over() {
            let reason = Reason::new(ReasonCode::MatchOver, Some(action), None);
            return Some(Refusal {
                reason,
                named: action.to_string(),
                legal: Vec::new(),
            });
        }
        self.deal.refusal(player, action)
    }

    /// Applies an action already known to be legal (see [`DealState::apply_unchecked`]).
    #[inline]
    pub fn apply_unchecked(&mut self, action: Action) -> Result<Option<Outcome>, DuelError> {
        self.deal.apply_unchecked(action);
        if self.deal.is_over() {
            self.finish_deal()
        } else {
            Ok(None)
        }
    }

    /// Takes back the last action of the deal in progress; `None` (nothing changed) at the
    /// start of a deal or once the match is over: a finished deal stays scored.
    pub fn undo(&mut self) -> Option<Action> {
        if self.is_over() {
            return None;
        }
        let (before, action) = self.deal.before_last()?;
        self.deal = before;
        Some(action)
    }

    /// If the deal in progress is over, scores it and deals the next unless the match is
    /// over. Cold: once a deal.
    #[cold]
    fn finish_deal(&mut self) -> Result<Option<Outcome>, DuelError> {
        let Some(outcome) = self.deal.outcome() else {
            return Ok(None);
        };
        let mut score = self.score;
        score.record(&outcome);
        if !self.endless && score.winner().is_some() {
            self.score = score;
            return Ok(Some(outcome));
        }
        let next = match_deal(self.seed, score.first_dealer, score.deals, self.rules)?;
        let finished = std::mem::replace(&mut self.deal, next);
        match self.history {
            History::All => self.earlier.push(finished),
            History::Last => {
                self.earlier.clear();
                self.earlier.push(finished);
            }
            History::Nothing => {}
        }
        self.score = score;
        Ok(Some(outcome))
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
            // Every deal scores a point at least, so a match to 7 takes 13 deals at most.
            assert!(m.deals < 13, "no winner after {} deals", m.deals);
            let dealer = m.next_dealer();
            assert_eq!(u64::from(dealer), (1 + m.deals) % 2);
            let mut s = DealState::from_seed(seed, dealer, rules).unwrap();
            for _ in 0..crate::duel::state::MAX_ACTIONS {
                if let Some(&action) = s.legal_actions().first() {
                    s.apply_unchecked(action);
                }
            }
            assert!(s.is_over());
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

    /// Whole matches under several targets and both first dealers, against a tally kept
    /// here: each deal is the seeded deal with the alternating dealer, its outcome is added
    /// to the winner's score, and the match stops exactly when a seat reaches the target.
    #[test]
    fn a_match_deals_seeded_deals_and_stops_at_the_target() {
        for (seed, first_dealer, target) in [(42, 1, 7), (7, 0, 7), (3, 0, 2), (5, 1, 1)] {
            let rules = Rules {
                target,
                ..Rules::default()
            };
            let mut m = Match::new(seed, first_dealer, rules).unwrap();
            let mut tally = [0u8; 2];
            let mut deals = 0u64;
            while tally.iter().all(|&points| points < target) {
                // Every deal scores at least a point, so the match ends within 2t - 1 deals.
                assert!(
                    deals < 2 * u64::from(target) - 1,
                    "no end after {deals} deals"
                );
                assert!(!m.is_over());
                assert_eq!(m.winner(), None);
                assert_eq!(m.deal_index(), deals);
                let dealer = if deals.is_multiple_of(2) {
                    first_dealer
                } else {
                    1 - first_dealer
                };
                assert_eq!(m.deal.dealer(), dealer, "deal {deals}");
                let seeded = match_deal(seed, first_dealer, deals, rules).unwrap();
                assert_eq!(m.deal, seeded, "deal {deals} is the seeded deal");
                let outcome = play_deal(&mut m);
                tally[outcome.winner as usize] += outcome.points;
                deals += 1;
                assert_eq!(m.score.score, tally);
                assert_eq!(m.score.deals, deals);
            }
            let winner = u8::from(tally[1] >= target);
            assert!(deals >= 1);
            assert!(m.is_over());
            assert_eq!(m.winner(), Some(winner));
            assert_eq!(m.deal_index(), deals - 1, "the last deal stays, finished");
            assert!(m.deal.is_over());
            let before = m.clone();
            assert!(m.apply(Action::Decline).is_err());
            assert_eq!(m, before);
        }
        assert!(Match::new(1, 2, Rules::default()).is_err());
    }

    /// Plays the deal in progress to its end and returns its outcome, checked against the
    /// finished deal's own.
    fn play_deal(m: &mut Match) -> Outcome {
        let index = m.deal_index();
        // A deal takes at most `MAX_ACTIONS` actions.
        for step in 0..crate::duel::state::MAX_ACTIONS {
            assert_eq!(m.deal_index(), index);
            let legal = m.deal.legal_actions();
            let action = legal[step % legal.len()];
            let mut finished = m.deal;
            finished.apply(action).unwrap();
            let outcome = m.apply(action).unwrap();
            assert_eq!(outcome, finished.outcome());
            if let Some(outcome) = outcome {
                return outcome;
            }
            assert_eq!(m.deal, finished);
        }
        panic!("deal {index} did not end");
    }

    /// A match's views against the deals as this test saw them end: `deal_at`, `deals`,
    /// `outcomes`, `last_finished`, `current_player` and `observation`; `undo`; the same
    /// match driven by `apply_unchecked`; and the same match without history, which keeps
    /// only the last finished deal.
    #[test]
    fn a_match_keeps_its_deals() {
        let rules = Rules {
            target: 4,
            ..Rules::default()
        };
        let mut m = Match::new(11, 0, rules).unwrap();
        let mut unchecked = m.clone();
        let mut brief = m.clone().without_history();
        let mut finished: Vec<DealState> = Vec::new();
        let mut outcomes: Vec<Outcome> = Vec::new();
        // A match to 4 ends within 7 deals, each of `MAX_ACTIONS` actions at most.
        for step in 0..=7 * crate::duel::state::MAX_ACTIONS {
            check_views(&m, &brief, &finished, &outcomes);
            assert_eq!(unchecked, m);
            if m.is_over() {
                break;
            }
            if m.deal.actions().next().is_none() {
                let before = m.clone();
                assert_eq!(m.undo(), None, "nothing to undo at a deal's start");
                assert_eq!(m, before);
            }
            let legal = m.deal.legal_actions();
            let action = legal[step % legal.len()];
            let before = m.deal;
            let outcome = m.apply(action).unwrap();
            if outcome.is_none() {
                assert_eq!(m.undo(), Some(action));
                assert_eq!(m.deal, before);
                assert_eq!(m.apply(action).unwrap(), None);
            }
            assert_eq!(unchecked.apply_unchecked(action).unwrap(), outcome);
            assert_eq!(brief.apply(action).unwrap(), outcome);
            if let Some(outcome) = outcome {
                let mut done = before;
                done.apply(action).unwrap();
                finished.push(done);
                outcomes.push(outcome);
            }
        }
        assert!(m.is_over(), "the match to 4 did not end");
        assert!(finished.len() >= 3, "{} deals", finished.len());
        assert_eq!(m.current_player(), None);
        let before = m.clone();
        assert_eq!(m.undo(), None, "a finished deal stays scored");
        assert_eq!(m, before);
    }

    /// The views of `m` and of `brief` (the same match without history), given the deals
    /// that have ended and their outcomes.
    fn check_views(m: &Match, brief: &Match, finished: &[DealState], outcomes: &[Outcome]) {
        // Once the match is over, the last deal to end stays the deal in progress.
        let (done, live) = if m.is_over() {
            let (last, done) = finished.split_last().unwrap();
            (done, *last)
        } else {
            (finished, m.deal)
        };
        let current = done.len();
        assert_eq!(m.deal, live);
        assert_eq!(m.deal_index(), current as u64);
        for (k, deal) in done.iter().enumerate() {
            assert_eq!(m.deal_at(k), Some(deal), "deal {k}");
            let kept = (k + 1 == current).then_some(deal);
            assert_eq!(brief.deal_at(k), kept, "deal {k} without history");
        }
        assert_eq!(m.deal_at(current), Some(&live));
        assert_eq!(brief.deal_at(current), Some(&live));
        assert_eq!(m.deal_at(current + 1), None);
        let all: Vec<DealState> = done.iter().copied().chain([live]).collect();
        assert_eq!(m.deals().copied().collect::<Vec<_>>(), all);
        let kept = &all[current.saturating_sub(1)..];
        assert_eq!(brief.deals().copied().collect::<Vec<_>>(), kept);
        assert_eq!(m.outcomes().collect::<Vec<_>>(), outcomes);
        let kept_outcomes: Vec<Outcome> = kept.iter().filter_map(DealState::outcome).collect();
        assert_eq!(brief.outcomes().collect::<Vec<_>>(), kept_outcomes);
        assert_eq!(m.last_finished(), finished.last());
        assert_eq!(brief.last_finished(), finished.last());
        let player = (!m.is_over()).then(|| live.current_player()).flatten();
        assert_eq!(m.current_player(), player);
        for seat in 0..2 {
            assert_eq!(m.observation(seat), live.observation(seat, m.score.score));
        }
        assert_eq!((brief.score, brief.deal), (m.score, m.deal));
    }

    #[test]
    fn the_first_seat_at_the_target_wins() {
        for (score, winner) in [([7, 0], Some(0)), ([3, 7], Some(1)), ([9, 2], Some(0))] {
            let m = MatchScore {
                score,
                target: 7,
                first_dealer: 0,
                deals: 9,
            };
            assert_eq!(m.winner(), winner, "{score:?}");
        }
    }

    #[test]
    fn deals_alternate_the_dealer_from_the_first() {
        for first_dealer in [0, 1] {
            let mut m = MatchScore::new(7, first_dealer);
            for k in 0..6u64 {
                let dealer = if k.is_multiple_of(2) {
                    first_dealer
                } else {
                    1 - first_dealer
                };
                assert_eq!(m.next_dealer(), dealer);
                let deal = match_deal(9, first_dealer, k, Rules::default()).unwrap();
                assert_eq!(deal.dealer(), dealer);
                m.deals += 1;
            }
        }
    }

    #[test]
    fn a_match_resumes_from_its_score_and_the_deal_in_progress() {
        let rules = Rules::default();
        let mut m = Match::new(7, 1, rules).unwrap().without_history();
        let mut step = 0usize;
        while !m.is_over() {
            let legal = m.deal.legal_actions();
            m.apply(legal[step % legal.len()]).unwrap();
            step += 1;
            if m.is_over() {
                break;
            }
            let actions: Vec<Action> = m.deal.actions().collect();
            let resumed =
                Match::resume(7, 1, rules, m.score.score, m.deal_index(), &actions).unwrap();
            assert_eq!(resumed.deal, m.deal);
            assert_eq!(resumed.score, m.score);
        }
        let bad = |score, index| Match::resume(7, 1, rules, score, index, &[]).is_err();
        assert!(bad([7, 0], 4), "a seat at the target");
        assert!(bad([3, 0], 1), "more points than 1 deal gives");
        assert!(bad([1, 0], 2), "fewer points than 2 deals give");
        assert!(bad([0, 0], u64::MAX));
        assert!(Match::resume(7, 1, rules, [0, 0], 0, &[Action::Accept]).is_err());
        assert!(!bad([2, 1], 2));
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

    /// The vector env's match: it plays on past its target without a winner, deal `k` is the
    /// seeded deal `k` of the match with first dealer 0, the score and the deal count keep
    /// adding up, and no finished deal is kept.
    #[test]
    fn an_endless_match_deals_on_past_its_target() {
        let rules = Rules {
            target: 1,
            ..Rules::default()
        };
        let mut m = Match::endless(5, rules).unwrap();
        let mut unchecked = m.clone();
        let mut tally = [0u8; 2];
        for deals in 0..6u64 {
            assert_eq!((m.winner(), m.is_over()), (None, false));
            assert_eq!(m.deal_index(), deals);
            assert_eq!(
                m.deal,
                match_deal(5, 0, deals, rules).unwrap(),
                "deal {deals}"
            );
            assert_eq!(m.deals().count(), 1, "only the deal in progress is kept");
            assert_eq!(m.last_finished(), None);
            for k in 0..deals as usize {
                assert_eq!(m.deal_at(k), None, "deal {k} is not kept");
            }
            assert_eq!(m.deal_at(deals as usize), Some(&m.deal));
            let outcome = play_deal(&mut m);
            let unchecked_outcome = (0..crate::duel::state::MAX_ACTIONS).find_map(|_| {
                let action = unchecked.deal.legal_actions()[0];
                unchecked.apply_unchecked(action).unwrap()
            });
            assert!(unchecked_outcome.is_some(), "deal {deals} did not end");
            tally[outcome.winner as usize] += outcome.points;
            assert_eq!(m.score.score, tally);
            assert_eq!(m.score.deals, deals + 1);
            assert_eq!(unchecked.score.deals, deals + 1);
        }
        assert!(
            tally[0].max(tally[1]) > rules.target,
            "played past the target"
        );
    }
}
