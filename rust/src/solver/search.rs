//! The double-dummy search proper: null-window alpha-beta over a compact position.
//!
//! Cards are re-indexed as `suit * 8 + strength` (strength under the deal's rank order), so
//! within a suit a higher bit is a stronger card and "beats" is a comparison.
//!
//! The searched quantity is the *metric* `m = 2 * tricks + last` of one side over the
//! tricks still to play, where `last` is 1 when that side takes the last trick. It orders
//! results first by tricks and then by the last trick, which is exactly what deal points
//! depend on (more cards wins, equal cards go to the last trick's winner), and the two sides'
//! metrics add up to `2 * remaining + 1`. Every question a caller asks is a threshold test
//! "can this side reach `m >= k`?", answered by [`Search::lead_ge`] with a boolean
//! (null-window) search. A transposition table keyed by the two hands and the talon to come
//! at trick boundaries keeps lower and upper bounds on the leader's metric (with draws by
//! seat, together with which seat leads: see [`Search::seat_tag`]; the table and its key are
//! in [`super::table`]), and the lead that proved a bound, tried first the next time, before
//! the killers and a plain order (see [`Search::order_leads`]). Once the talon is gone,
//! endgame tables give the exact value (see [`super::endgame`]).

// `a`, `b`, `t`, `r`, `k` follow the notation above: the leader's and the follower's
// hands, the talon index, the tricks left and the threshold.
#![allow(clippy::many_single_char_names)]

use crate::duel::state::TALON_SIZE;

use super::endgame::{self, Tables, TABLE_TRICKS};
use super::packed::{
    absolute, beats_with, pop, reduce_equivalent, relative, relative_card, replies_with, suit_bits,
};
use super::table::{Entry, Table};

/// More than the talon indices a search reaches: the talon's cards, then two for each of
/// the (at most five) tricks after it.
const STEPS: usize = 64;
const _: () = assert!(TALON_SIZE + 2 * 5 < STEPS);

/// The talon at one index of a solve.
#[derive(Clone, Copy, Default)]
struct TalonStep {
    /// The pair drawn after a trick there, the first card to the winner, under the rules'
    /// draws (0 past the last pair).
    first: u32,
    second: u32,
    /// With draws by seat while a pair other than the last is to come, the mover's pool:
    /// the cards the root's mover can ever hold before the last pair (its hand and its
    /// fixed draws); else 0.
    pool: u32,
    /// The undrawn talon from there on, and the table's id of it.
    after: u32,
    id: u16,
    /// The pairs left to draw.
    pairs_left: u8,
}

/// A search context: the transposition table (reused across solves, invalidated by a
/// generation stamp rather than cleared) and the talon of the current solve.
pub(crate) struct Search {
    table: Table,
    /// What the search needs at each talon index, looked up rather than worked out at
    /// every node (see [`TalonStep`]).
    steps: [TalonStep; STEPS],
    trump_bits: u32,
    trump_suit: usize,
    /// Every endgame's value, see [`endgame`].
    endgames: &'static Tables,
    /// The last two leads that proved a bound, by tricks left (killer moves).
    killer: [[u8; 2]; 17],
    /// Nodes searched since [`Search::reset`]: see [`super::NODE_COUNT_VERSION`].
    pub nodes: u64,
    /// The most nodes this solve may search ([`u64::MAX`] unless [`Search::limit_nodes`]
    /// set it).
    node_limit: u64,
    /// Whether the solve reached its node limit: from then on every test answers at once,
    /// its answer meaningless, and nothing more is stored in the table.
    pub stopped: bool,
}

impl Search {
    pub fn new() -> Search {
        Search {
            table: Table::new(),
            steps: [TalonStep::default(); STEPS],
            trump_bits: 0,
            trump_suit: 0,
            endgames: endgame::tables(),
            killer: [[0xff; 2]; 17],
            nodes: 0,
            node_limit: u64::MAX,
            stopped: false,
        }
    }

    /// Lets the solve begun by the last [`Search::reset`] search at most `max_nodes` nodes;
    /// past them it stops (see [`Search::stopped`]).
    pub fn limit_nodes(&mut self, max_nodes: u64) {
        self.node_limit = max_nodes;
    }

    /// Prepares a new solve: the undrawn talon (internal indices, draw order), the trump
    /// suit (0-3), with draws by seat the root mover's hand (see [`super::Draws::BySeat`]:
    /// the root's mover takes the talon cards at even indices and the other seat those at
    /// odd ones, whoever wins the trick, except the last pair, which follows the rules),
    /// and the scope whose solves share the table (see [`super::table`]).
    pub fn reset(
        &mut self,
        talon: &[u8],
        trump_suit: u8,
        by_seat_mover: Option<u32>,
        scope: Option<u64>,
    ) {
        self.table.begin(scope);
        // The talon is drawn in pairs.
        debug_assert!(talon.len().is_multiple_of(2));
        self.trump_bits = 0xff << (trump_suit * 8);
        self.trump_suit = trump_suit as usize;
        let last_pair = talon.len().saturating_sub(2);
        let mover_pool = by_seat_mover.map_or(0, |hand| {
            (0..last_pair)
                .step_by(2)
                .fold(hand, |pool, i| pool | 1 << talon[i])
        });
        // Each talon to come, exactly: five bits a card, after a header holding a start bit,
        // the trump suit and the way of drawing.
        let mut code =
            1u128 << 3 | u128::from(trump_suit) << 1 | u128::from(by_seat_mover.is_some());
        let gone = TalonStep {
            id: self.table.intern(code),
            ..TalonStep::default()
        };
        self.steps = [gone; STEPS];
        for i in (0..talon.len()).rev() {
            code = code << 5 | u128::from(talon[i]);
            let after = self.steps[i + 1].after | 1 << talon[i];
            let id = self.table.intern(code);
            let step = &mut self.steps[i];
            step.after = after;
            step.id = id;
            step.pairs_left = ((talon.len() - i) / 2) as u8;
            if i + 1 < talon.len() {
                step.first = 1 << talon[i];
                step.second = 1 << talon[i + 1];
            }
            if i + 2 < talon.len() {
                step.pool = mover_pool;
            }
        }
        self.killer = [[0xff; 2]; 17];
        self.nodes = 0;
        self.node_limit = u64::MAX;
        self.stopped = false;
    }

    /// What the search needs at talon index `t` (below [`STEPS`]).
    #[inline]
    fn step(&self, t: usize) -> &TalonStep {
        debug_assert!(t < STEPS);
        &self.steps[t % STEPS]
    }

    /// Whether `card`, played second, beats `lead`.
    #[inline]
    pub fn beats(&self, card: u8, lead: u8) -> bool {
        beats_with(self.trump_bits, card, lead)
    }

    /// The follower's legal replies to `lead` from `hand`.
    #[inline]
    pub fn replies(&self, hand: u32, lead: u8) -> u32 {
        replies_with(self.trump_bits, hand, lead)
    }

    /// Whether the leader `a` at talon index `t` takes the first card of each pair to come,
    /// with draws by seat while a pair other than the last is to come: part of the table's
    /// key, as the table keys hands by their ranks among the live cards, and a position and
    /// its seat-swapped twin draw differently.
    #[inline]
    fn seat_tag(&self, a: u32, t: usize) -> u8 {
        u8::from(a & self.step(t).pool != 0)
    }

    /// The table's id of the talon to come at index `t`.
    #[inline]
    fn talon_id(&self, t: usize) -> u16 {
        self.step(t).id
    }

    /// The hands after a trick at talon index `t`: the winner draws first, or by seat.
    #[inline]
    fn draw(&self, winner: u32, loser: u32, t: usize) -> (u32, u32) {
        let TalonStep {
            first,
            second,
            pool,
            ..
        } = *self.step(t);
        // By seat, the mover's hand (never empty while the talon lasts) lies in its pool
        // and the other hand outside it: the other seat winning still takes the odd card.
        if pool != 0 && winner & pool == 0 {
            (winner | second, loser | first)
        } else {
            (winner | first, loser | second)
        }
    }

    /// Tricks left at a trick boundary: the hand plus one card per talon pair to come.
    #[inline]
    pub fn tricks_left(&self, hand: u32, t: usize) -> i32 {
        pop(hand) + i32::from(self.step(t).pairs_left)
    }

    /// The live cards: both hands and the undrawn talon.
    #[inline]
    pub fn live(&self, a: u32, b: u32, t: usize) -> u32 {
        a | b | self.step(t).after
    }

    /// Can the leader, holding `a` against `b` with the talon at index `t`, reach a metric
    /// of at least `k` over the remaining tricks?
    pub fn lead_ge(&mut self, a: u32, b: u32, t: usize, k: i32) -> bool {
        let r = self.tricks_left(a, t);
        if k <= 0 {
            return true;
        }
        if k > 2 * r + 1 {
            return false;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
            return false;
        }
        self.nodes += 1;
        if r <= TABLE_TRICKS {
            // The talon is gone (a hand holds five cards while it lasts).
            return self.endgames.value(a, b, r, self.trump_suit) >= k;
        }
        let live = self.live(a, b, t);
        // Key on ranks relative to the live cards: positions that differ only in which
        // equivalent cards were played transpose.
        let key = u64::from(relative(a, live)) | u64::from(relative(b, live)) << 32;
        let (talon, seat) = (self.talon_id(t), self.seat_tag(a, t));
        let (mut lower, mut upper, mut best) = (0u8, (2 * r + 1) as u8, 0xff);
        if let Some(entry) = self.table.probe(key, talon, seat) {
            lower = entry.lower;
            upper = entry.upper;
            best = absolute(entry.best, live);
            if i32::from(lower) >= k {
                return true;
            }
            if i32::from(upper) < k {
                return false;
            }
        }
        let mut moves = Moves::new();
        self.order_leads(
            reduce_equivalent(a, live),
            best,
            self.killer[r as usize],
            &mut moves,
        );
        let mut proved = None;
        for &lead in moves.as_slice() {
            if self.lead_card_ge(a & !(1 << lead), b, lead, t, r, k) {
                proved = Some(lead);
                break;
            }
        }
        if self.stopped {
            // The answers below this node are meaningless: store nothing.
            return false;
        }
        match proved {
            Some(lead) => {
                lower = k as u8;
                best = lead;
                let slot = &mut self.killer[r as usize];
                if slot[0] != lead {
                    slot[1] = slot[0];
                    slot[0] = lead;
                }
            }
            None => upper = (k - 1) as u8,
        }
        self.table.store(Entry {
            key,
            lower,
            upper,
            best: relative_card(best, live),
            seat,
            talon,
            generation: 0,
        });
        proved.is_some()
    }

    /// After the leader (now holding `a`) led `lead` with `r` tricks left counting this
    /// one: does every reply leave the leader a metric of at least `k`?
    pub fn lead_card_ge(&mut self, a: u32, b: u32, lead: u8, t: usize, r: i32, k: i32) -> bool {
        let legal = self.replies(b, lead);
        let live = self.live(a, b, t) | 1 << lead;
        let cands = reduce_equivalent(legal, live);
        // The cheapest winning card first (the winners are all of the led suit or all
        // trumps, so the lowest index), then the cheapest losing card, by rank across suits
        // when the follower discards.
        let winners = cands & self.beating(lead);
        let (mut set, mut losers) = (winners, cands & !winners);
        loop {
            while set != 0 {
                let reply = set.trailing_zeros() as u8;
                set &= set - 1;
                if !self.reply_ge(a, b & !(1 << reply), lead, reply, t, r, k) {
                    return false;
                }
            }
            if losers == 0 {
                return true;
            }
            // The losers of the lowest rank any suit holds, straight to it.
            let ranks = (losers | losers >> 8 | losers >> 16 | losers >> 24) & 0xff;
            let rank = 0x0101_0101u32 << ranks.trailing_zeros();
            set = losers & rank;
            losers &= !rank;
        }
    }

    /// The cards that beat `lead`: higher cards of its suit and, unless it is a trump, the
    /// trumps.
    #[inline]
    fn beating(&self, lead: u8) -> u32 {
        let higher = suit_bits(lead) & !((2u32 << lead).wrapping_sub(1));
        if self.trump_bits & (1 << lead) == 0 {
            higher | self.trump_bits
        } else {
            higher
        }
    }

    /// The leader's test `m >= k` once the trick `lead`/`reply` is complete, `a` and `b`
    /// being the hands left.
    #[allow(clippy::too_many_arguments)] // the hot path keeps the position unpacked
    #[inline]
    pub fn reply_ge(
        &mut self,
        a: u32,
        b: u32,
        lead: u8,
        reply: u8,
        t: usize,
        r: i32,
        k: i32,
    ) -> bool {
        if self.beats(reply, lead) {
            if r == 1 {
                return k <= 0;
            }
            let (nb, na) = self.draw(b, a, t);
            // The follower leads next: leader's m = 2r - 1 - follower's m.
            !self.lead_ge(nb, na, t + 2, 2 * r - k)
        } else {
            if r == 1 {
                return k <= 3;
            }
            let (na, nb) = self.draw(a, b, t);
            self.lead_ge(na, nb, t + 2, k - 2)
        }
    }

    /// The leads `cands` (the leader's cards less equivalent ones) in the order to search
    /// them: the table's `best`, the killers, then the side suits suit by suit, each from
    /// its highest card, then the trumps from the highest. Keeping the trumps for last is
    /// what counts (the side suits by rank across suits were slower too): a finer
    /// static score (a card above every other live one first, then a suit the follower can
    /// neither follow nor trump, then trumps, then low side cards) took 40% more time on
    /// the expert's exchange decisions, and this order with the trumps first 30% more.
    fn order_leads(&self, cands: u32, best: u8, killer: [u8; 2], moves: &mut Moves) {
        let mut rest = cands;
        for c in [best, killer[0], killer[1]] {
            if c < 32 && rest & 1 << c != 0 {
                moves.push(c);
                rest &= !(1 << c);
            }
        }
        for mut part in [rest & !self.trump_bits, rest & self.trump_bits] {
            while part != 0 {
                let c = 31 - part.leading_zeros() as u8;
                moves.push(c);
                part &= !(1 << c);
            }
        }
    }
}

/// The leads of a node in search order (a hand holds at most five cards), without
/// allocating.
struct Moves {
    cards: [u8; 8],
    len: usize,
}

impl Moves {
    fn new() -> Moves {
        Moves {
            cards: [0; 8],
            len: 0,
        }
    }

    fn push(&mut self, card: u8) {
        self.cards[self.len] = card;
        self.len += 1;
    }

    fn as_slice(&self) -> &[u8] {
        &self.cards[..self.len]
    }
}

#[cfg(test)]
mod endgame_tests {
    use super::super::tests::splitmix64;
    use super::{pop, Search};

    /// The leader's exact metric by plain minimax, without pruning, tables or reductions.
    fn plain(s: &Search, a: u32, b: u32) -> i32 {
        let r = pop(a);
        let mut best = -1;
        for lead in (0..32u8).filter(|&c| a & 1 << c != 0) {
            let replies = s.replies(b, lead);
            let worst = (0..32u8)
                .filter(|&c| replies & 1 << c != 0)
                .map(|reply| {
                    let (a, b) = (a & !(1 << lead), b & !(1 << reply));
                    let won = !s.beats(reply, lead);
                    match (r, won) {
                        (1, true) => 3,
                        (1, false) => 0,
                        (_, true) => 2 + plain(s, a, b),
                        (_, false) => 2 * r - 1 - plain(s, b, a),
                    }
                })
                .min()
                .unwrap_or(i32::MAX);
            best = best.max(worst);
        }
        best
    }

    /// Random endgames (the talon gone, one to five cards each, any trump suit): the
    /// endgame tables (a five-trick value fresh and known) and the full search agree with
    /// plain minimax at every threshold.
    #[test]
    fn endgame_searches_match_plain_minimax() {
        let mut next = splitmix64(0x5EED);
        let mut search = Search::new();
        for round in 0..3000 {
            let r = 1 + round % 5;
            let (mut a, mut b) = (0u32, 0u32);
            while pop(a) < r || pop(b) < r {
                let card = 1u32 << (next() % 32);
                if (a | b) & card != 0 {
                    continue;
                }
                if pop(a) < r {
                    a |= card;
                } else {
                    b |= card;
                }
            }
            // A few solves share a table, so later ones also read earlier entries.
            if round % 4 == 0 {
                search.reset(&[], (next() % 4) as u8, None, None);
            }
            let exact = plain(&search, a, b);
            let trump = search.trump_suit;
            assert_eq!(
                search.endgames.value(a, b, r, trump),
                exact,
                "{a:#x} {b:#x}"
            );
            assert_eq!(
                search.endgames.value(a, b, r, trump),
                exact,
                "{a:#x} {b:#x}, known"
            );
            for k in 0..=2 * r + 2 {
                let want = exact >= k;
                assert_eq!(search.lead_ge(a, b, 0, k), want, "{a:#x} {b:#x} {k}");
            }
        }
    }
}

#[cfg(test)]
mod size_tests {
    /// The table's footprint, quoted by `ecarte.bench.SOLVER_TABLE_BYTES`: 2**14 entries of
    /// 16 bytes, 256 KiB per solving thread (the endgame tables are shared by all threads).
    #[test]
    fn the_table_takes_256_kib() {
        assert_eq!(std::mem::size_of::<super::Entry>(), 16);
        let search = super::Search::new();
        assert_eq!(search.table.len() * 16, 256 * 1024);
    }
}
