//! The one match runner. Every path that plays a match between agents goes through
//! [`advance`]: `Match.play` and the arena's Python path (Python callbacks as agents), the
//! native batch matches of `simulate` and the arena, the CLI's `play` (the human's seat has
//! no agent), and the single-agent environments (the learner's seat has none).

use super::agent::BuiltinAgent;
use crate::control::Control;
use crate::duel::action::Action;
use crate::duel::matches::Match;
use crate::duel::state::{DuelError, Outcome};

/// Someone who chooses moves in a match: a built-in [`BuiltinAgent`], or an outside callback.
pub trait Player {
    type Error: From<DuelError>;

    /// The action of the player to move in `game`, which is not over.
    fn act(&mut self, game: &Match) -> Result<Action, Self::Error>;
}

impl Player for BuiltinAgent {
    type Error = DuelError;

    #[inline]
    fn act(&mut self, game: &Match) -> Result<Action, DuelError> {
        Ok(BuiltinAgent::act(
            self,
            &game.deal,
            game.score.score,
            Control::NONE,
        ))
    }
}

/// A built-in agent in a run that its caller may cancel: once `control` is cancelled, its
/// searches give way to the heuristic ([`BuiltinAgent::act`]), so the match ends in moments.
pub struct Controlled<'a> {
    pub agent: &'a mut BuiltinAgent,
    pub control: Control<'a>,
}

impl Player for Controlled<'_> {
    type Error = DuelError;

    #[inline]
    fn act(&mut self, game: &Match) -> Result<Action, DuelError> {
        Ok(self.agent.act(&game.deal, game.score.score, self.control))
    }
}

/// Why [`advance`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The player in this seat, who has no agent, is to move.
    Outside(u8),
    /// A deal ended with this outcome; the next deal is dealt and nobody has acted in it.
    DealEnded(Outcome),
    /// The match is over (the deal that ended it is [`Match::deal`]).
    MatchOver,
}

/// Plays `game` forward: the player to move acts through their agent (`agents[seat]`),
/// and every action is checked before it is applied (an illegal one is refused with the
/// match unchanged). Returns when a seat without an agent is to move, when the match is
/// over, or, if `stop_at_deal_end`, when a deal ends. `on_action(seat, action)` is told of
/// every action, after it is applied.
pub fn advance<P: Player + ?Sized>(
    game: &mut Match,
    agents: [Option<&mut P>; 2],
    stop_at_deal_end: bool,
    mut on_action: impl FnMut(&Match, u8, Action) -> Result<(), P::Error>,
) -> Result<Stop, P::Error> {
    let mut agents = agents;
    loop {
        let Some(seat) = game.current_player() else {
            return Ok(Stop::MatchOver);
        };
        let Some(agent) = agents[seat as usize].as_deref_mut() else {
            return Ok(Stop::Outside(seat));
        };
        let action = agent.act(game)?;
        let ended = game.apply(action)?;
        on_action(game, seat, action)?;
        match ended {
            _ if game.is_over() => return Ok(Stop::MatchOver),
            Some(outcome) if stop_at_deal_end => return Ok(Stop::DealEnded(outcome)),
            _ => {}
        }
    }
}

/// Plays `game` to its end between two agents; `on_deal(game, outcome)` is told of every
/// finished deal, the last one included.
pub fn play_match<P: Player + ?Sized>(
    game: &mut Match,
    agents: [&mut P; 2],
    mut on_deal: impl FnMut(&Match, Outcome) -> Result<(), P::Error>,
) -> Result<(), P::Error> {
    let [first, second] = agents;
    let (mut first, mut second) = (Some(first), Some(second));
    loop {
        let stop = advance(
            game,
            [first.as_deref_mut(), second.as_deref_mut()],
            true,
            |_, _, _| Ok(()),
        )?;
        match stop {
            Stop::DealEnded(outcome) => on_deal(game, outcome)?,
            // Both seats have an agent, so only the match's end stops it otherwise.
            Stop::MatchOver | Stop::Outside(_) => {
                if let Some(outcome) = game.deal.outcome() {
                    on_deal(game, outcome)?;
                }
                return Ok(());
            }
        }
    }
}
