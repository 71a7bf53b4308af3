//! The agent a Rust program writes, and the runner that plays it: the runner hands each
//! agent only what its seat may know, never the hidden cards.

use super::agent::BuiltinAgent;
use super::runner::{self, Player};
use crate::control::Control;
use crate::duel::action::Action;
use crate::duel::matches::Match;
use crate::duel::observe::Observation;
use crate::duel::state::DuelError;

/// A player of duel matches that a program implements.
///
/// The runner ([`play_match`]) calls [`Agent::act`] whenever the agent's seat is to move,
/// with that seat's [`Observation`]: its own hand, the cards shown and played, the score,
/// and every action as that seat saw it. The opponent's hand and the talon are not in it.
/// An action outside `legal` stops the match with [`DuelError::IllegalAction`].
pub trait Agent {
    /// The action of `observation.player`, who is to move; `legal` holds that seat's legal
    /// actions in action-id order, never empty.
    fn act(&mut self, observation: &Observation, legal: &[Action]) -> Action;
}

impl Agent for BuiltinAgent {
    fn act(&mut self, observation: &Observation, legal: &[Action]) -> Action {
        let mask = legal.iter().fold(0u128, |mask, a| mask | 1 << a.id());
        self.act_seen(observation, mask, Control::NONE)
    }
}

/// An [`Agent`] as the runner's player: it is shown the observation of its seat alone.
struct Seat<'a>(&'a mut dyn Agent);

impl Player for Seat<'_> {
    type Error = DuelError;

    fn act(&mut self, game: &Match) -> Result<Action, DuelError> {
        // The runner asks only while a seat is to move.
        let seat = game.current_player().unwrap_or_default();
        let legal = game.deal.legal_actions();
        Ok(self.0.act(&game.observation(seat), &legal))
    }
}

/// Plays `game` to its end, `agents[seat]` choosing for each seat. Each action is checked
/// before it is applied: an illegal one ends the run with [`DuelError::IllegalAction`] and
/// the match as it was before it. The result is in `game` ([`Match::winner`],
/// [`Match::outcomes`], [`crate::duel::MatchRecord`]).
pub fn play_match(game: &mut Match, agents: [&mut dyn Agent; 2]) -> Result<(), DuelError> {
    let [first, second] = agents;
    let mut seats = [Seat(first), Seat(second)];
    let [first, second] = &mut seats;
    runner::play_match(game, [first, second], |_, _| Ok(()))
}
