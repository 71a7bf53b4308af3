//! Sampling complete worlds consistent with one player's observation.
//!
//! A world is a full deck (the opponent's hand, the talon order) plus the opponent's hidden
//! discards. The sampler targets this distribution: the deck uniform over the 32! orders,
//! each hidden discard uniform among the opponent's legal discards at that moment, the
//! whole conditioned on reproducing the observation exactly. With trump discards allowed
//! every discard has the same number of choices, so this is uniform over the consistent
//! (deck, discards) pairs; otherwise a world weighs `1 / legal` per hidden discard.
//!
//! The sampling is exact and never gives up: a dynamic program counts the consistent
//! worlds, then each world is drawn card by card with the exact conditional odds. It
//! follows the opponent's hand through the visible history (dealt cards, draws, hidden
//! discards, plays). Every rule inference is one of its constraints:
//! - a card the opponent played was in their hand by then (dealt, or drawn before);
//! - failing to follow shows a void in the led suit, and failing to trump too a void in
//!   trumps, at that moment only (a later draw may end it);
//! - a hidden discard is a card then in hand that is not played later, and a non-trump
//!   unless the rules allow trumps or the hand was all trumps.
//!
//! The state is the opponent's hand up to what the constraints can tell apart: never-seen
//! cards by suit, slots held for cards the opponent plays later by suit (which of them is
//! decided at the play, among the slots held for its suit), whether they hold the turn-up,
//! and the never-seen cards used so far by suit. The never-seen cards left at the end are
//! the undrawn talon, in uniform order. Each sampled world is replayed against the
//! observation before it is returned, so a sampler bug gives an error, never a wrong world.
//! The count leaves out the hands that can complete no world (see `Model::can_complete`):
//! over the 3,586 decisions of the fixed decision set (`benches/decision_set.py`) it visits
//! 1,900 hands on average and 17,700 at most (3,100 and 25,000 before those were left out),
//! and the sampling of 24 worlds for a play decision takes 0.15 ms on average, once per
//! call (trump discards allowed and many exchanges make more hands).
//!
//! It replaces rejection sampling, which failed in legal positions: always without
//! exchanges (the first trick's lead, action 0, had no slot "held before" it), and where
//! voids and the discard rule left too few consistent worlds for its attempt budget.
//!
//! Known bias, by design: the opponent's *plays* are treated as carrying no information
//! beyond the rules (they are not weighted by how likely the opponent was to make them),
//! as in every Perfect-Information Monte Carlo player.

use std::fmt;

use crate::card::Card;
use crate::duel::action::{bit, pack_card, Action, PACK_SIZE};
use crate::duel::observe::Observation;
use crate::duel::rules::beats;
use crate::duel::state::{DealState, TALON_SIZE};
use crate::rng::{rng_from_seed, GameRng};

mod count;
use count::Counts;

/// The most worlds one call returns: each world is a few hundred bytes, and a caller's
/// count must not exhaust memory.
pub const MAX_WORLDS: usize = 1 << 20;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SampleError {
    /// The observation is not one a deal can produce.
    Inconsistent(String),
    /// More worlds were asked for than [`MAX_WORLDS`].
    TooMany { wanted: usize, max: usize },
}

impl fmt::Display for SampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleError::Inconsistent(why) => write!(f, "inconsistent observation: {why}"),
            SampleError::TooMany { wanted, max } => {
                write!(f, "cannot sample {wanted} worlds: at most {max} per call")
            }
        }
    }
}

impl std::error::Error for SampleError {}

/// The deck position of talon card `i` (the turn-up is drawn last).
fn talon_position(i: usize) -> usize {
    if i == TALON_SIZE - 1 {
        10
    } else {
        11 + i
    }
}

/// One step of the opponent's hand, in history order.
#[derive(Clone, Copy, Debug)]
enum Event {
    /// A hidden card reaches the opponent's hand at deck position `slots[i]`.
    Arrive(usize),
    /// The opponent draws the turn-up.
    TurnUp,
    /// The opponent's hidden discard at history index `j`.
    Discard(usize),
    /// The opponent plays `card` holding no card of the suits in the mask `void`.
    Play { card: Card, void: u8 },
}

/// The opponent's hand as far as the constraints can tell, before an event, packed in
/// 4-bit fields of one word (every count is at most 8), which is also its key in the count:
/// - never-seen cards in hand, by suit ([`UNSEEN`]);
/// - slots held for cards the opponent plays later, by suit ([`HELD`]);
/// - never-seen cards dealt or drawn so far, discarded ones included, by suit ([`USED`]);
/// - whether they hold the turn-up (bit 48).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Hand(u64);

/// The first bit of each count of [`Hand`].
const UNSEEN: u32 = 0;
const HELD: u32 = 16;
const USED: u32 = 32;
const TURN_UP: u64 = 1 << 48;

impl Hand {
    /// The count at `field` (one of [`UNSEEN`], [`HELD`], [`USED`]) for suit `s`.
    #[inline]
    fn count(self, field: u32, s: usize) -> u8 {
        (self.0 >> (field + 4 * s as u32) & 0xf) as u8
    }

    fn unseen(self, s: usize) -> u8 {
        self.count(UNSEEN, s)
    }

    fn held(self, s: usize) -> u8 {
        self.count(HELD, s)
    }

    fn used(self, s: usize) -> u8 {
        self.count(USED, s)
    }

    fn turn_up(self) -> bool {
        self.0 & TURN_UP != 0
    }

    /// The hand with one more at `field` for suit `s`.
    #[inline]
    fn plus(self, field: u32, s: usize) -> Hand {
        Hand(self.0 + (1 << (field + 4 * s as u32)))
    }

    /// The hand with one fewer at `field` for suit `s` (which holds at least one).
    #[inline]
    fn minus(self, field: u32, s: usize) -> Hand {
        Hand(self.0 - (1 << (field + 4 * s as u32)))
    }

    fn with_turn_up(self, held: bool) -> Hand {
        Hand(if held {
            self.0 | TURN_UP
        } else {
            self.0 & !TURN_UP
        })
    }

    fn key(self) -> u64 {
        self.0
    }

    /// Cards in hand: the never-seen ones, the held slots and the turn-up.
    fn size(self) -> u8 {
        // The eight 4-bit counts of the low word, summed bytewise, then the bytes summed.
        let x = self.0 & 0xffff_ffff;
        let bytes = (x & 0x0f0f_0f0f) + (x >> 4 & 0x0f0f_0f0f);
        (bytes.wrapping_mul(0x0101_0101) >> 24 & 0xff) as u8 + u8::from(self.turn_up())
    }
}

/// What a transition does to the hand: the choice the world is built from.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// A never-seen card of this suit arrives.
    Unseen(u8),
    /// The slot is held for a later play of this suit.
    Hold(u8),
    TurnUp,
    /// A never-seen card of this suit is discarded.
    DiscardUnseen(u8),
    DiscardTurnUp,
    /// A held card of this suit is played.
    PlayHeld(u8),
    PlayTurnUp,
}

/// The talon draws in order: the player's own cards go into the deck, the opponent's
/// become events.
struct Draws<'a> {
    obs: &'a Observation,
    own: std::slice::Iter<'a, Card>,
    next: usize,
}

impl Draws<'_> {
    fn draw(
        &mut self,
        deck: &mut [Option<Card>; PACK_SIZE],
        events: &mut Vec<Event>,
        slots: &mut Vec<usize>,
    ) -> Result<(), SampleError> {
        let bad = |why: &str| SampleError::Inconsistent(why.to_string());
        let i = self.next;
        let who = *self
            .obs
            .talon_drawers
            .get(i)
            .ok_or_else(|| bad("a draw is missing from the talon drawers"))?;
        self.next += 1;
        let position = talon_position(i);
        if who == self.obs.player {
            let card = *self.own.next().ok_or_else(|| bad("missing own draw"))?;
            if deck[position].is_some_and(|c| c != card) {
                return Err(bad("the turn-up was drawn as another card"));
            }
            deck[position] = Some(card);
        } else if position == 10 {
            events.push(Event::TurnUp);
        } else {
            events.push(Event::Arrive(slots.len()));
            slots.push(position);
        }
        Ok(())
    }
}

/// The transitions out of one hand: at most two per suit on an arrival.
struct Kids {
    items: [(Step, f64, Hand); 8],
    len: usize,
}

impl Kids {
    fn new() -> Kids {
        Kids {
            items: [(Step::TurnUp, 0.0, Hand::default()); 8],
            len: 0,
        }
    }

    fn push(&mut self, kid: (Step, f64, Hand)) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = kid;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[(Step, f64, Hand)] {
        &self.items[..self.len]
    }
}

/// Everything fixed across samples.
struct Model {
    me: u8,
    trump: usize,
    allow_trump_discard: bool,
    /// The deck with the player's own cards and the turn-up in place.
    deck: [Option<Card>; PACK_SIZE],
    /// The opponent's hidden positions, in arrival order.
    slots: Vec<usize>,
    /// Undrawn talon positions other than the turn-up's.
    talon: Vec<usize>,
    /// Never-seen cards by suit.
    unseen: [Vec<Card>; 4],
    events: Vec<Event>,
    /// Cards of each suit the opponent plays from event `e` on (the turn-up aside).
    plays_left: Vec<[u8; 4]>,
    /// For event `e` and each suit, what the opponent can still shed of the suit before
    /// the next play from `e` on that shows them void in it: the hidden discards and their
    /// plays of the suit until then (the whole rest of the deal when no void is shown).
    /// See [`Model::can_complete`].
    sheddable: Vec<[(u8, u8); 4]>,
    /// For event `e`, at each of the next [`CHECKPOINTS`] arrivals (or the end) that follow
    /// a play: the opponent's plays of each suit from `e` up to it and the hidden arrivals
    /// from `e` up to it (further ones seldom rule a hand out, and cost a check each).
    /// See [`Model::can_complete`].
    checkpoints: Vec<Vec<([u8; 4], u8)>>,
}

/// How many of the arrivals to come [`Model::can_complete`] checks.
const CHECKPOINTS: usize = 4;

/// The suit index of a card (`C D H S`).
fn suit(card: Card) -> usize {
    card.suit().index()
}

impl Model {
    fn new(obs: &Observation) -> Result<Model, SampleError> {
        let bad = |why: &str| SampleError::Inconsistent(why.to_string());
        let me = obs.player;
        if me > 1 || obs.dealer > 1 {
            return Err(bad("seats are 0 and 1"));
        }
        let opponent = 1 - me;
        let elder = 1 - obs.dealer;
        if obs.initial_hand.len() != 5 {
            return Err(bad("the initial hand must have five cards"));
        }
        let (mine, theirs) = if me == elder {
            (0..5, 5..10)
        } else {
            (5..10, 0..5)
        };
        let mut deck: [Option<Card>; PACK_SIZE] = [None; PACK_SIZE];
        for (pos, &card) in mine.zip(&obs.initial_hand) {
            deck[pos] = Some(card);
        }
        deck[10] = Some(obs.turn_up);
        let trump = suit(obs.turn_up);
        let (events, slots, next_draw) = Self::timeline(obs, theirs, trump, &mut deck)?;
        let talon: Vec<usize> = (next_draw..TALON_SIZE - 1).map(talon_position).collect();

        let mut known = 0u32;
        for card in deck.iter().flatten() {
            if known & bit(*card) != 0 || bit(*card) == 0 {
                return Err(bad("a card appears twice"));
            }
            known |= bit(*card);
        }
        let turn_up_theirs = obs.turn_up_holder == Some(opponent);
        let mut played = 0u32;
        for event in &events {
            if let Event::Play { card, .. } = event {
                let turn_up = *card == obs.turn_up && turn_up_theirs;
                if bit(*card) == 0
                    || (known & bit(*card) != 0 && !turn_up)
                    || played & bit(*card) != 0
                {
                    return Err(bad("the opponent played a card they cannot hold"));
                }
                played |= bit(*card);
            }
        }
        let mut unseen: [Vec<Card>; 4] = Default::default();
        for card in (0..PACK_SIZE).map(pack_card) {
            if (known | played) & bit(card) == 0 {
                unseen[suit(card)].push(card);
            }
        }
        let hidden_plays = (played & !known).count_ones() as usize;
        let unseen_count: usize = unseen.iter().map(Vec::len).sum();
        if unseen_count + hidden_plays != slots.len() + talon.len() {
            return Err(bad("card counts do not add up"));
        }
        let mut plays_left = vec![[0u8; 4]; events.len() + 1];
        for (e, event) in events.iter().enumerate().rev() {
            plays_left[e] = plays_left[e + 1];
            if let Event::Play { card, .. } = event {
                if *card != obs.turn_up {
                    plays_left[e][suit(*card)] += 1;
                }
            }
        }
        let (sheddable, checkpoints) = Self::lookahead(&events, obs.turn_up);
        Ok(Model {
            me,
            trump,
            sheddable,
            checkpoints,
            allow_trump_discard: obs.rules.allow_trump_discard,
            deck,
            slots,
            talon,
            unseen,
            events,
            plays_left,
        })
    }

    /// The tables of [`Model::can_complete`] for the opponent's `events`: what can be shed
    /// of each suit before the next void shown, and the plays to hold for by each arrival.
    #[allow(clippy::type_complexity)] // two tables, each described at its field
    fn lookahead(events: &[Event], turn_up: Card) -> (Vec<[(u8, u8); 4]>, Vec<Vec<([u8; 4], u8)>>) {
        // Walking back: a void in a suit resets what can be shed of it before that play.
        let mut sheddable = vec![[(u8::MAX, u8::MAX); 4]; events.len() + 1];
        for (e, event) in events.iter().enumerate().rev() {
            let mut shed = sheddable[e + 1];
            match event {
                Event::Discard(_) => {
                    for (discards, _) in &mut shed {
                        *discards = discards.saturating_add(1);
                    }
                }
                Event::Play { card, void } => {
                    if *card != turn_up {
                        let plays = &mut shed[suit(*card)].1;
                        *plays = plays.saturating_add(1);
                    }
                    for (s, bound) in shed.iter_mut().enumerate() {
                        if void & (1 << s) != 0 {
                            *bound = (0, 0);
                        }
                    }
                }
                Event::Arrive(_) | Event::TurnUp => {}
            }
            sheddable[e] = shed;
        }
        let mut checkpoints = vec![Vec::new(); events.len() + 1];
        for (e, list) in checkpoints.iter_mut().enumerate() {
            let (mut plays, mut arrivals) = ([0u8; 4], 0u8);
            for event in &events[e..] {
                match event {
                    Event::Arrive(_) => {
                        if plays.iter().any(|&p| p > 0) {
                            list.push((plays, arrivals));
                            if list.len() == CHECKPOINTS {
                                break;
                            }
                        }
                        arrivals += 1;
                    }
                    Event::Play { card, .. } if *card != turn_up => plays[suit(*card)] += 1,
                    _ => {}
                }
            }
            if list.len() < CHECKPOINTS && plays.iter().any(|&p| p > 0) {
                list.push((plays, arrivals));
            }
        }
        (sheddable, checkpoints)
    }

    /// The opponent's events in history order, their hidden positions in arrival order,
    /// and the number of talon cards drawn; the player's own draws go into `deck`.
    fn timeline(
        obs: &Observation,
        theirs: std::ops::Range<usize>,
        trump: usize,
        deck: &mut [Option<Card>; PACK_SIZE],
    ) -> Result<(Vec<Event>, Vec<usize>, usize), SampleError> {
        let bad = |why: &str| SampleError::Inconsistent(why.to_string());
        let opponent = 1 - obs.player;
        let elder = 1 - obs.dealer;
        let mut slots: Vec<usize> = theirs.collect();
        let mut events: Vec<Event> = (0..5).map(Event::Arrive).collect();
        let mut draws = Draws {
            obs,
            own: obs.draws.iter(),
            next: 0,
        };
        // Who plays each card: the elder leads first, then each trick's winner.
        let mut leader = elder;
        let mut lead: Option<Card> = None;
        for (j, action) in obs.history.iter().enumerate() {
            match action {
                Some(Action::Accept) => {
                    for _ in 0..2 {
                        if draws.next >= TALON_SIZE {
                            return Err(bad("an exchange after the talon ran out"));
                        }
                        draws.draw(deck, &mut events, &mut slots)?;
                    }
                }
                None => events.push(Event::Discard(j)),
                Some(Action::Play(card)) => {
                    let player = if lead.is_some() { 1 - leader } else { leader };
                    if player == opponent {
                        let mut void = 0u8;
                        if let Some(first) = lead {
                            if suit(first) != suit(*card) {
                                void |= 1 << suit(first);
                                if suit(*card) != trump {
                                    void |= 1 << trump;
                                }
                            }
                        }
                        events.push(Event::Play { card: *card, void });
                    }
                    match lead.take() {
                        None => lead = Some(*card),
                        Some(first) => {
                            let won = beats(obs.rules.order, obs.trump, *card, first);
                            leader = if won { player } else { 1 - player };
                            if draws.next < TALON_SIZE {
                                draws.draw(deck, &mut events, &mut slots)?;
                                draws.draw(deck, &mut events, &mut slots)?;
                            }
                        }
                    }
                }
                Some(_) => {}
            }
        }
        let next_draw = draws.next;
        if next_draw != obs.talon_drawers.len() || draws.own.next().is_some() {
            return Err(bad("the draws do not match the history"));
        }
        Ok((events, slots, next_draw))
    }

    /// The transitions out of `hand` at event `e`, with their weights (the number of
    /// worlds each stands for, times the discard odds).
    fn children(&self, e: usize, hand: Hand, out: &mut Kids) {
        out.len = 0;
        match self.events[e] {
            Event::Arrive(_) => {
                if hand.size() >= 6 {
                    return;
                }
                for s in 0..4 {
                    let left = self.unseen[s].len() as u8 - hand.used(s);
                    if left > 0 {
                        let child = hand.plus(UNSEEN, s).plus(USED, s);
                        out.push((Step::Unseen(s as u8), f64::from(left), child));
                    }
                    if hand.held(s) < self.plays_left[e][s] {
                        out.push((Step::Hold(s as u8), 1.0, hand.plus(HELD, s)));
                    }
                }
            }
            Event::TurnUp => {
                if hand.size() < 6 {
                    out.push((Step::TurnUp, 1.0, hand.with_turn_up(true)));
                }
            }
            Event::Discard(_) => {
                let non_trumps: u8 = (0..4)
                    .filter(|&s| s != self.trump)
                    .map(|s| hand.unseen(s) + hand.held(s))
                    .sum();
                let any = self.allow_trump_discard || non_trumps == 0;
                let legal = f64::from(if any { hand.size() } else { non_trumps });
                for s in 0..4 {
                    if hand.unseen(s) > 0 && (any || s != self.trump) {
                        out.push((
                            Step::DiscardUnseen(s as u8),
                            f64::from(hand.unseen(s)) / legal,
                            hand.minus(UNSEEN, s),
                        ));
                    }
                }
                if hand.turn_up() && any {
                    out.push((Step::DiscardTurnUp, 1.0 / legal, hand.with_turn_up(false)));
                }
            }
            Event::Play { card, void } => {
                for s in (0..4).filter(|s| void & (1 << s) != 0) {
                    if hand.unseen(s) + hand.held(s) > 0 || (s == self.trump && hand.turn_up()) {
                        return;
                    }
                }
                if self.is_turn_up(card) {
                    if hand.turn_up() {
                        out.push((Step::PlayTurnUp, 1.0, hand.with_turn_up(false)));
                    }
                } else {
                    let s = suit(card);
                    if hand.held(s) > 0 {
                        out.push((
                            Step::PlayHeld(s as u8),
                            f64::from(hand.held(s)),
                            hand.minus(HELD, s),
                        ));
                    }
                }
            }
        }
    }

    /// Whether the opponent's played `card` is the turn-up (the only card of theirs the
    /// player can see in place).
    fn is_turn_up(&self, card: Card) -> bool {
        self.deck[10] == Some(card)
    }

    /// Whether `hand`, before event `e`, can still complete a world, by a necessary
    /// condition, so that the count leaves out hands that count for nothing: before the
    /// opponent shows a void in a suit, every card of the suit in hand must go, a never-seen
    /// one by a hidden discard, a slot held for a play by a play of the suit.
    fn can_complete(&self, e: usize, hand: Hand) -> bool {
        let shed = &self.sheddable[e];
        (0..4).all(|s| hand.unseen(s) <= shed[s].0 && hand.held(s) <= shed[s].1)
            && self.checkpoints[e].iter().all(|(plays, arrivals)| {
                let missing: u8 = (0..4).map(|s| plays[s].saturating_sub(hand.held(s))).sum();
                missing <= *arrivals
            })
    }

    /// Whether a hand after the last event completes a world: every held slot was
    /// played, and the never-seen cards left fill the undrawn talon.
    fn complete(&self, hand: Hand) -> bool {
        let left: usize = (0..4)
            .map(|s| self.unseen[s].len() - hand.used(s) as usize)
            .sum();
        (0..4).all(|s| hand.held(s) == 0) && left == self.talon.len()
    }
}

/// A drawn world before its history is replayed: the whole deck and the opponent's hidden
/// discards, at their history indices (`None` elsewhere).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    pub deck: [Card; PACK_SIZE],
    pub discards: Vec<Option<Card>>,
}

impl Draft {
    /// The actions of the observation's history with the hidden discards filled in.
    pub fn history<'a>(
        &'a self,
        obs: &'a Observation,
    ) -> impl Iterator<Item = Option<Action>> + 'a {
        obs.history
            .iter()
            .zip(&self.discards)
            .map(|(action, discard)| action.or(discard.map(Action::Discard)))
    }
}

/// Worlds consistent with one observation, drawn one by one: the count is made once, then
/// each world is a [`Draft`] (cheap) that [`Sampler::world`] replays into a deal state.
pub struct Sampler<'a> {
    obs: &'a Observation,
    model: Model,
    counts: Counts,
    rng: GameRng,
}

impl<'a> Sampler<'a> {
    /// The sampler of `obs`'s worlds, reproducible for a `seed`; an error when no world
    /// reproduces `obs`.
    pub fn new(obs: &'a Observation, seed: u64) -> Result<Sampler<'a>, SampleError> {
        let model = Model::new(obs)?;
        let counts = Counts::new(&model);
        if counts.total() <= 0.0 {
            return Err(SampleError::Inconsistent(
                "no world reproduces it".to_string(),
            ));
        }
        Ok(Sampler {
            obs,
            model,
            counts,
            rng: rng_from_seed(seed),
        })
    }

    /// The next world's draft.
    pub fn draft(&mut self) -> Result<Draft, SampleError> {
        self.counts.draft(&self.model, self.obs, &mut self.rng)
    }

    /// The deal state of a draft: its deck with the whole history applied. The safety net:
    /// an error unless the state shows the player exactly what they saw, so a sampler bug
    /// gives an error, never a wrong world.
    pub fn world(&self, draft: &Draft) -> Result<DealState, SampleError> {
        let failed = || SampleError::Inconsistent("no world reproduces it".to_string());
        let obs = self.obs;
        let mut state =
            DealState::from_deck(&draft.deck, obs.dealer, obs.rules).map_err(|_| failed())?;
        for action in draft.history(obs) {
            state
                .apply(action.ok_or_else(failed)?)
                .map_err(|_| failed())?;
        }
        if state.observation(self.model.me, obs.score) != *obs {
            return Err(failed());
        }
        Ok(state)
    }
}

/// `n` worlds consistent with `obs`, reproducible for a `seed`. Each world is the deal
/// state at the observation's moment, with the whole history applied. Never fails on an
/// observation of a legal deal when `n <= MAX_WORLDS`.
pub fn sample_worlds(
    obs: &Observation,
    n: usize,
    seed: u64,
) -> Result<Vec<DealState>, SampleError> {
    if n > MAX_WORLDS {
        return Err(SampleError::TooMany {
            wanted: n,
            max: MAX_WORLDS,
        });
    }
    let mut sampler = Sampler::new(obs, seed)?;
    // Grown as worlds come: `n` is the caller's, so nothing is reserved from it.
    let mut worlds = Vec::new();
    for _ in 0..n {
        let draft = sampler.draft()?;
        worlds.push(sampler.world(&draft)?);
    }
    Ok(worlds)
}

/// Whether some deal gives `obs` (a record read from outside): the counts are in range, and
/// a world sampled from it gives it back exactly.
pub fn observation_is_possible(obs: &Observation) -> bool {
    let small = obs.player <= 1
        && obs.dealer <= 1
        && obs.current_player.is_none_or(|p| p <= 1)
        && obs.rules.validate().is_ok()
        && obs.hand.len() <= 5
        && obs.initial_hand.len() == 5
        && obs.discards.len() <= 22
        && obs.draws.len() <= 22
        && obs.talon_drawers.len() <= 22
        && obs.talon_size <= 22
        && obs.tricks.len() <= 16
        && obs.history.len() <= crate::duel::state::MAX_ACTIONS;
    if !small {
        return false;
    }
    // The sampler trusts its input; a malformed one must not take the interpreter down.
    let sampled = std::panic::catch_unwind(|| sample_worlds(obs, 1, 0));
    matches!(sampled, Ok(Ok(worlds)) if worlds.first().is_some_and(|w| w.observation(obs.player, obs.score) == *obs))
}

#[cfg(test)]
#[path = "sampler_tests.rs"]
mod tests;
