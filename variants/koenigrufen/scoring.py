"""Counting, premiums and settlement in cents.

Settlement is zero-sum and per opponent (RULES.md, decision 1): in 2 v 2
each loser pays one winner, a lone player receives from or pays each of the
others; in negative games and Bei-games each declarer settles with each
other player separately, Kontra counting for that pair only.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.cards import MOND, TRULL, Card, is_king
from core.state import HandResult, HandState, Premium
from variants.common import settle
from variants.koenigrufen.cardplay import thirds
from variants.koenigrufen.context import KINGS, called_in_talon, declarers, kr
from variants.koenigrufen.games import (
    ABSOLUT,
    ABSOLUT_THIRDS,
    BIRDS,
    GRAMMOPOI,
    GRAMMOPOI_THIRDS,
    KING_ULTIMO,
    KINGS_P,
    MATERIAL,
    MONDFANG,
    PREMIUM_ORDER,
    TRULL_P,
    VALAT,
    Dialect,
    Game,
)

UNDER = 3 * 17 + 1
"""Seed 002, Trischaken: "Unterwertiger - höchstens 17/1"."""
OVER = 3 * 35 + 1
"""Seed 002, Trischaken: "Oberwertiger - 17/2 bis höchstens 35/1"; seed 003,
Fahrer: "mehr als 35 Punkte 1 Blatt"."""


def party(state: HandState) -> frozenset[int]:
    """The declarer's true party."""
    return state.declarer_party()


def talon_rest(state: HandState) -> list[Card]:
    return [c for pile in state.talon for c in pile]


def party_piles(state: HandState, game: Game) -> tuple[list[Card], list[Card]]:
    """The cards of the declarer party (tricks and discards) and of the
    opponents (tricks and the talon left over)."""
    ours: list[Card] = list(state.discards)
    theirs: list[Card] = talon_rest(state)
    members = party(state)
    for trick in state.tricks:
        (ours if trick.winner in members else theirs).extend(trick.cards)
    if game.king_in_talon == "half-at-end" and called_in_talon(state):
        # seed 002: "erhält der Solospieler die Talonhälfte mit dem König"
        for pile in state.talon:
            if state.called in pile:
                for card in pile:
                    theirs.remove(card)
                ours.extend(pile)
    if game.king_in_talon == "at-end" and called_in_talon(state) and state.called in theirs:
        # seed 003: "erhält ihn der Rufer am Ende des Spieles und muss dafür ein leeres Blatt abgeben"
        theirs.remove(state.called)
        blanks = sorted((c for c in ours if c >= 22 and (c - 22) % 8 >= 4), reverse=True) or \
            sorted((c for c in ours if 0 < c < 20), reverse=True)
        if blanks:
            ours.remove(blanks[0])
            theirs.append(blanks[0])
        ours.append(state.called)
    return ours, theirs


def seat_piles(state: HandState, game: Game) -> dict[int, list[Card]]:
    """Each seat's cards where each plays for himself: tricks, plus the talon
    card thrown into each of the first six tricks (Trischaken) or the talon
    for the winner of the last trick (Fahrer)."""
    piles: dict[int, list[Card]] = {s: [] for s in state.players}
    for trick in state.tricks:
        assert trick.winner is not None
        piles[trick.winner].extend(trick.cards)
    rest = talon_rest(state)
    if game.talon == "trick":
        for trick, card in zip(state.tricks, rest, strict=False):
            assert trick.winner is not None
            piles[trick.winner].append(card)
    elif state.tricks:
        last = state.tricks[-1].winner
        assert last is not None
        piles[last].extend(rest)
    return piles


# -- premiums ----------------------------------------------------------------

def _bird_outcome(state: HandState, card: Card, from_end: int) -> tuple[int, bool] | None:
    """(seat, won) if ``card`` was played to its trick (``from_end`` 1 = the last)."""
    index = len(state.tricks) - from_end
    if index < 0:
        return None
    trick = state.tricks[index]
    if card not in trick.cards:
        return None
    seat = trick.seats[trick.cards.index(card)]
    return seat, trick.winner == seat


def _achieved(state: HandState, name: str, ours: Sequence[Card], theirs: Sequence[Card],
              mondfang_partners: bool) -> int:
    """+1 if the declarer party made ``name``, -1 if the opponents did, 0 if nobody."""
    members = party(state)

    def side(seat: int) -> int:
        return 1 if seat in members else -1

    if name in BIRDS or name == KING_ULTIMO:
        if name == KING_ULTIMO:
            if state.called is None or not is_king(state.called):
                return 0
            outcome = _bird_outcome(state, state.called, 1)
        else:
            outcome = _bird_outcome(state, *BIRDS[name])
        if outcome is None:
            return 0
        seat, won = outcome
        return side(seat) if won else -side(seat)
    if name in (TRULL_P, KINGS_P):
        cards = TRULL if name == TRULL_P else frozenset(KINGS)
        return 1 if cards <= set(ours) else -1 if cards <= set(theirs) else 0
    if name in (ABSOLUT, GRAMMOPOI):
        need = ABSOLUT_THIRDS if name == ABSOLUT else GRAMMOPOI_THIRDS
        return 1 if thirds(ours) >= need else -1 if thirds(theirs) >= need else 0
    if name == VALAT:
        winners = {t.winner in members for t in state.tricks}
        return 0 if len(winners) != 1 else 1 if True in winners else -1
    if name == MONDFANG:
        for trick in state.tricks:
            if MOND in trick.cards:
                owner = trick.seats[trick.cards.index(MOND)]
                assert trick.winner is not None
                if side(owner) != side(trick.winner):
                    return side(trick.winner)
                if mondfang_partners and owner != trick.winner:
                    return -side(owner)
        return 0
    raise KeyError(name)


def kontras_void(state: HandState, game: Game) -> bool:
    """Seed 002, Solorufer with the called King in the talon: "Kontras zählen
    dann in keinem Fall" (on the game and on every announcement)."""
    return game.king_in_talon == "half-at-end" and called_in_talon(state)


def _factor(state: HandState, game: Game, target: str, owner: int, level: int) -> int:
    """2 ** level when the Kontra came from the other party, else 1 (seed 002:
    "Ein Kontra auf eine Prämienansage des Partners zählt nicht")."""
    if level == 0 or kontras_void(state, game):
        return 1
    by = kr(state).get("ann", {}).get("kontra_by", {}).get(target)
    members = party(state)
    if by is None or (by in members) == (owner in members):
        return 1
    return int(2 ** level)


def valat_side(state: HandState) -> int:
    """+1/-1 if the declarer party / the opponents won every trick, else 0."""
    return _achieved(state, VALAT, (), (), False)


def premiums(state: HandState, dialect: Dialect, game: Game) -> list[Premium]:
    """The premiums of a finished game played for points, signed from the
    declarer party's side, Kontra and solo doubling applied."""
    if not game.premiums or not state.tricks:
        return []
    ours, theirs = party_piles(state, game)
    members = party(state)
    announced = {a.name: a for a in state.announcements}
    double = 2 if game.doubled else 1
    mondfang_partners = bool(state.options.get("mondfang_partners"))
    out: list[Premium] = []
    for name in PREMIUM_ORDER:
        if name not in game.premiums:
            continue
        silent, loud = dialect.premium_values[name]
        if dialect.valat_multiplies and name == VALAT:
            silent, loud = silent * game.value, loud * game.value
        achieved = _achieved(state, name, ours, theirs, mondfang_partners)
        a = announced.get(name)
        if a is not None and name == MONDFANG:
            holder = kr(state).get("mond_holder")
            if holder is not None and holder != a.seat and (holder in members) == (a.seat in members):
                # "Wird der Mondfang angesagt, obwohl der Partner ihn hält, ist die Ansage hinfällig"
                a = None
        if a is not None:
            side = 1 if a.seat in members else -1
            factor = _factor(state, game, name, a.seat, a.kontra)
            if name == GRAMMOPOI and ABSOLUT in announced:  # "Kontra auf Absolut bedingt selbiges"
                ab = announced[ABSOLUT]
                factor = max(factor, _factor(state, game, ABSOLUT, ab.seat, ab.kontra))
            sign = side if achieved == side else -side
            kontra = factor.bit_length() - 1  # the level that counts
            out.append(Premium(name, sign * loud * factor * double, True, kontra))
        elif achieved:
            out.append(Premium(name, achieved * silent * double))
    v = valat_side(state)
    if v and not dialect.valat_multiplies:
        # seed 002: "Bei Valat zählen alle Spielprämien, Materialprämien aber nur, wenn für die
        # Valatseite verloren, oder wenn ein Kontra erfolgt ist."
        out = [p for p in out if p.name not in MATERIAL or p.value * v < 0 or p.kontra > 0]
    if v and dialect.valat_multiplies:
        out = [p for p in out if p.name == VALAT]  # the Valat replaces every other premium
    return out


# -- settlement --------------------------------------------------------------

def score_points_game(state: HandState, dialect: Dialect, game: Game, count: int, ours_pts: int,
                      prem: Sequence[Premium]) -> HandResult:
    """Result of a game played for points (2 v 2 or 1 v 3)."""
    assert state.declarer is not None
    members = party(state)
    won = ours_pts >= dialect.win
    factor = _factor(state, game, "", state.declarer, state.kontra_level)
    game_amount = game.value if won else -(game.lost or game.value)
    note = ""
    if game.king_in_talon == "at-end" and called_in_talon(state):
        # seed 003: "muss der Spieler auf alle Fälle den einfachen Spielwert bezahlen, auch wenn
        # das Spiel kontriert wurde"
        won, factor, game_amount = False, 1, -game.value
        note = "the called King lay in the talon"
    if dialect.valat_multiplies and valat_side(state):
        game_amount, note = 0, "Valat: it replaces the game and the other premiums"
    amount = game_amount * factor + sum(p.value for p in prem)
    decl = tuple(sorted(members))
    return HandResult(decl, (ours_pts, count - ours_pts), 3, won, game_amount, tuple(prem), factor,
                      settle(state.seats, state.players, decl, amount), note)


def score_given_up(state: HandState, dialect: Dialect, game: Game) -> HandResult:
    """The declarer gave up: he pays the game to each of the three others
    (seed 002 Besserrufer: "ist ... der kleinste Vogel im Blatt zu zahlen")."""
    assert state.declarer is not None
    amount = game.value
    if game.bird and dialect.giveup_pays_bird:
        held = kr(state).get("pre_talon", state.hands[state.declarer])
        birds = [name for name, (card, _) in BIRDS.items() if card in held]
        if birds:
            amount += dialect.premium_values[birds[0]][1]
    decl = (state.declarer,)
    return HandResult(decl, (0, 0), 3, False, -amount, (), 1,
                      settle(state.seats, state.players, decl, -amount), "given up")


def score_tricks_game(state: HandState, game: Game, count: int) -> HandResult:
    """Negative games (and their Bei-games): each declarer needs exactly
    ``game.tricks`` tricks; he settles with every other player, Kontra
    counting individually."""
    pairs: dict[tuple[int, int], int] = kr(state).get("ann", {}).get("pairs", {})
    decl = declarers(state)
    out = [0] * state.seats
    results = []
    for d in decl:
        made = sum(1 for t in state.tricks if t.winner == d)
        ok = made == game.tricks
        results.append(ok)
        amount = game.value if ok else -game.value
        for other in state.players:
            if other != d:
                f = 2 ** pairs.get((d, other), 0)
                out[d] += amount * f
                out[other] -= amount * f
    ours = [c for t in state.tricks if t.winner in decl for c in t.cards]
    pts = thirds(ours)
    won: bool | None = all(results) if len(set(results)) == 1 else None
    factor = max((2 ** level for level in pairs.values()), default=1)
    note = ", ".join(f"seat {d}: {'made' if ok else 'failed'}" for d, ok in zip(decl, results, strict=True))
    return HandResult(tuple(decl), (pts, count - pts), 3, won, game.value, (), factor, tuple(out), note)


def score_trischaken(state: HandState, game: Game) -> HandResult:
    """Seed 002: Jungfrau (no trick), Unterwertiger (at most 17/1),
    Oberwertiger (17/2 to 35/1), Bürgermeister (35/2 and more); each pays
    every lower one 10 cents per step."""
    piles = seat_piles(state, game)
    pts = {s: thirds(p) for s, p in piles.items()}
    tricks = {s: sum(1 for t in state.tricks if t.winner == s) for s in state.players}
    rank = {s: 0 if tricks[s] == 0 else 1 if pts[s] <= UNDER else 2 if pts[s] <= OVER else 3
            for s in state.players}
    out = [0] * state.seats
    for a in state.players:
        for b in state.players:
            if rank[a] > rank[b]:
                out[a] -= game.value * (rank[a] - rank[b])
                out[b] += game.value * (rank[a] - rank[b])
    names = ("Jungfrau", "Unterwertiger", "Oberwertiger", "Bürgermeister")
    note = ", ".join(f"seat {s}: {names[rank[s]]}" for s in state.players)
    return _each_result(state, pts, out, note)


def score_fahrer(state: HandState, game: Game) -> HandResult:
    """Seed 003, Fahrer: the player with the most points pays each other the
    game value, double above 35/1, double again if he is the forehand; a
    Jungfrau receives the whole sum; each Kontra doubles; the next round
    counts double."""
    piles = seat_piles(state, game)
    pts = {s: thirds(p) for s, p in piles.items()}
    tricks = {s: sum(1 for t in state.tricks if t.winner == s) for s in state.players}
    most = max(pts.values())
    losers = [s for s in state.players if pts[s] == most]
    others = [s for s in state.players if s not in losers]
    virgins = [s for s in others if tricks[s] == 0]
    kontra = 2 ** len(kr(state).get("fahrer", {}).get("by", []))
    out = [0] * state.seats
    for loser in losers:
        each = game.value * kontra * (2 if pts[loser] > OVER else 1) * (2 if loser == state.forehand else 1)
        for s in virgins or others:
            amount = each * len(others) if virgins else each
            out[loser] -= amount
            out[s] += amount
    note = f"loser: {', '.join(f'seat {s}' for s in losers)}"
    if virgins:
        note += f"; Jungfrau: {', '.join(f'seat {s}' for s in virgins)}"
    result = _each_result(state, pts, out, note)
    return HandResult(result.declarers, result.points, 3, None, game.value, (), kontra, result.settlement,
                      note, result.seat_points, next_round_factor=2)


def _each_result(state: HandState, pts: dict[int, int], out: list[int], note: str) -> HandResult:
    seat_points = tuple(pts.get(s, 0) for s in range(state.seats))
    fh = state.forehand
    rest = sum(v for s, v in pts.items() if s != fh)
    return HandResult((fh,), (pts[fh], rest), 3, None, 0, (), 1, tuple(out), note, seat_points)
