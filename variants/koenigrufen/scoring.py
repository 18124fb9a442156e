"""Counting, premiums and the settlement's items, in cents.

Settlement is zero-sum and per opponent (docs/rules.md §10), computed by
core from the items here (:mod:`core.settlement`): in 2 v 2 each loser pays
one winner, a lone player receives from or pays each of the others; in
negative games and Bei-games each declarer settles with each other player
separately (one item per pair), Kontra counting for that pair only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from tarock.core.cards import MOND, SKUS, TRULL, Card, is_king
from tarock.core.contracts import ContractSpec, Outcome, PremiumSpec
from tarock.core.settlement import Item
from tarock.core.state import HandState, Score
from tarock.variants.koenigrufen.cardplay import thirds
from tarock.variants.koenigrufen.context import KINGS, called_in_talon, declarers, kr
from tarock.variants.koenigrufen.games import (
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
    king_in_talon,
)

UNDER = 3 * 17 + 1
"""docs/rules.md §16.7, Trischaken: "Unterwertiger - höchstens 17/1"."""
OVER = 3 * 35 + 1
"""docs/rules.md §16.7, Trischaken: "Oberwertiger - 17/2 bis höchstens 35/1"; §17.7,
Fahrer: "mehr als 35 Punkte 1 Blatt"."""


def party(state: HandState) -> frozenset[int]:
    """The declarer's true party."""
    return state.declarer_party()


def talon_rest(state: HandState) -> list[Card]:
    return [c for pile in state.talon for c in pile]


def party_piles(state: HandState, game: ContractSpec) -> tuple[list[Card], list[Card]]:
    """The cards of the declarer party (tricks and discards) and of the
    opponents (tricks and the talon left over)."""
    ours: list[Card] = list(state.discards)
    theirs: list[Card] = talon_rest(state)
    members = party(state)
    for trick in state.tricks:
        (ours if trick.winner in members else theirs).extend(trick.cards)
    if game.talon in ("trick", "last") and state.tricks:
        # the talon went into the first tricks, or to the winner of the last one
        rest = talon_rest(state)
        winners = state.tricks if game.talon == "trick" else [state.tricks[-1]] * len(rest)
        for trick, card in zip(winners, rest, strict=False):
            theirs.remove(card)
            (ours if trick.winner in members else theirs).append(card)
    if king_in_talon(game) == "half-at-end" and called_in_talon(state):
        # docs/rules.md §16.6: "erhält der Solospieler die Talonhälfte mit dem König"
        for pile in state.talon:
            if state.called in pile:
                for card in pile:
                    theirs.remove(card)
                ours.extend(pile)
    if king_in_talon(game) == "at-end" and called_in_talon(state) and state.called in theirs:
        # docs/rules.md §17.6: "erhält ihn der Rufer am Ende des Spieles und muss dafür ein leeres
        # Blatt abgeben"
        theirs.remove(state.called)
        blanks = sorted((c for c in ours if c >= 22 and (c - 22) % 8 >= 4), reverse=True) or \
            sorted((c for c in ours if 0 < c < 20), reverse=True)
        if blanks:
            ours.remove(blanks[0])
            theirs.append(blanks[0])
        ours.append(state.called)
    return ours, theirs


def seat_piles(state: HandState, game: ContractSpec) -> dict[int, list[Card]]:
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

KING_SET = frozenset(KINGS)

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


def outcomes(state: HandState, game: ContractSpec, mondfang_partners: bool) -> dict[str, Outcome]:
    """Which party made (or, for birds and König Ultimo played in their trick and
    losing it, attempted and failed) each premium of a finished game for points.
    König Ultimo is made by the King taking the last trick, or with the option
    ``king_ultimo = party`` by its party taking it.

    Mondfang: the Sküs takes the trick holding the other party's Mond; with
    ``mondfang_partners`` also a partner's Mond, which then counts against the
    Mond's party; a Trull trick the Pagat takes (Märchenstich) is no Mondfang
    ("Dies zählt, abgesehen von der gewonnenen Trull, nicht als Prämie").
    """
    members = party(state)
    ours, theirs = party_piles(state, game)
    ours_set, theirs_set = set(ours), set(theirs)
    ours_thirds, theirs_thirds = thirds(ours), thirds(theirs)
    out: dict[str, Outcome] = {}
    for name in PREMIUM_ORDER:
        if name in BIRDS or name == KING_ULTIMO:
            if name == KING_ULTIMO:
                if state.called is None or not is_king(state.called):
                    continue
                played = _bird_outcome(state, state.called, 1)
                if played is not None and state.options.get("king_ultimo") == "party":
                    # docs/rules.md §18.5: the King's party takes the last trick, not the King itself
                    played = played[0], (state.tricks[-1].winner in members) == (played[0] in members)
            else:
                played = _bird_outcome(state, *BIRDS[name])
            if played is not None:
                seat, won = played
                out[name] = Outcome(seat in members, made=won)
        elif name in (TRULL_P, KINGS_P):
            cards = TRULL if name == TRULL_P else KING_SET
            if cards <= ours_set:
                out[name] = Outcome(True)
            elif cards <= theirs_set:
                out[name] = Outcome(False)
        elif name in (ABSOLUT, GRAMMOPOI):
            need = ABSOLUT_THIRDS if name == ABSOLUT else GRAMMOPOI_THIRDS
            if ours_thirds >= need:
                out[name] = Outcome(True)
            elif theirs_thirds >= need:
                out[name] = Outcome(False)
        elif name == VALAT:
            sides = {t.winner in members for t in state.tricks}
            if len(sides) == 1:
                out[name] = Outcome(sides.pop())
        elif name == MONDFANG:
            for trick in state.tricks:
                if MOND in trick.cards and SKUS in trick.cards:
                    owner = trick.seats[trick.cards.index(MOND)]
                    catcher = trick.seats[trick.cards.index(SKUS)]
                    if trick.winner != catcher or owner == catcher:
                        continue
                    if (owner in members) != (catcher in members):
                        out[name] = Outcome(catcher in members)
                    elif mondfang_partners:
                        out[name] = Outcome(owner not in members)
    return out


def kontras_void(state: HandState, game: ContractSpec) -> bool:
    """docs/rules.md §16.6, Solorufer with the called King in the talon: "Kontras zählen
    dann in keinem Fall" (on the game and on every announcement)."""
    return king_in_talon(game) == "half-at-end" and called_in_talon(state)


def _level(state: HandState, game: ContractSpec, target: str, owner: int, level: int) -> int:
    """The Kontra level that counts: ``level`` when the Kontra came from the other
    party, else 0 (docs/rules.md §15.6: "Ein Kontra auf eine Prämienansage des Partners zählt nicht")."""
    if level == 0 or kontras_void(state, game):
        return 0
    return _by_other(level, kr(state).get("ann", {}).get("kontra_by", {}).get(target), owner, party(state))


def _by_other(level: int, by: int | None, owner: int, members: frozenset[int]) -> int:
    """``level`` if the item's first Kontra came from seat ``by`` of the other party
    than ``owner``'s (``members``: the declarer party), else 0."""
    if by is None or (by in members) == (owner in members):
        return 0
    return level


def valat_side(state: HandState) -> int:
    """+1/-1 if the declarer party / the opponents won every trick, else 0."""
    members = party(state)
    sides = {t.winner in members for t in state.tricks}
    return 0 if len(sides) != 1 else 1 if True in sides else -1


def valat_mode(state: HandState, dialect: Dialect) -> str:
    """The option ``valat``: ``premium`` (docs/rules.md §16.5), ``replaces-all`` (§17.5: worth the game
    value times the Valat's, it replaces the game and every other premium) or ``replaces-game``
    (docs/rules.md §18.6: it replaces the game, announced premiums still count)."""
    default = "replaces-all" if dialect.valat_multiplies else "premium"
    return str(state.options.get("valat", default))


def valat_replaces_game(state: HandState, dialect: Dialect) -> bool:
    """Whether a Valat item stands in the game's place in this hand: one was made, or (with
    ``replaces-game``) one was announced."""
    mode = valat_mode(state, dialect)
    if mode == "replaces-game":
        return bool(valat_side(state)) or any(a.name == VALAT for a in state.announcements)
    return mode == "replaces-all" and bool(valat_side(state))


def _replacing_valat(state: HandState, game: ContractSpec, item: Item) -> Item:
    """docs/rules.md §18.6: the Valat in the game's place: its value times the game's (the lost
    value where the declarer side loses it), not doubled again in solo games, at the higher
    Kontra level of the game and the Valat."""
    lose = item.made != item.for_side
    value = game.lost_value() if lose else game.value
    kontra = max(item.kontra, _level(state, game, "", state.declarer or 0, state.kontra_level))
    return replace(item, base=item.base * value, scale=1, kontra=kontra, label="Valat")


def premium_items(state: HandState, dialect: Dialect, game: ContractSpec, specs: Mapping[str, PremiumSpec],
                  made: Mapping[str, Outcome]) -> list[Item]:
    """The premiums of a finished game played for points as items of the
    declarer side's settlement, with their counting Kontra and the solo scale.

    ``specs`` are the table's premium values (a house rule may change them),
    ``made`` the premiums' outcomes.
    """
    if not game.premiums or not state.tricks:
        return []
    members = party(state)
    side = tuple(sorted(members))
    opposite = tuple(s for s in state.players if s not in members)
    announced = {a.name: a for a in state.announcements}
    mode = valat_mode(state, dialect)
    void = kontras_void(state, game)
    kontra_by: dict[str, int] = kr(state).get("ann", {}).get("kontra_by", {})

    def counted(target: str, owner: int, level: int) -> int:
        """:func:`_level`, with what it asks of the hand asked once."""
        return 0 if level == 0 or void else _by_other(level, kontra_by.get(target), owner, members)

    out: list[Item] = []
    for name in PREMIUM_ORDER:
        spec = specs.get(name)
        if name not in game.premiums or spec is None:
            continue
        silent, loud = spec.silent, spec.announced
        if mode == "replaces-all" and name == VALAT:
            silent, loud = silent * game.value, loud * game.value
        outcome = made.get(name)
        a = announced.get(name)
        if a is not None and name == MONDFANG:
            holder = kr(state).get("mond_holder")
            if holder is not None and holder != a.seat and (holder in members) == (a.seat in members):
                # "Wird der Mondfang angesagt, obwohl der Partner ihn hält, ist die Ansage hinfällig"
                a = None
        if a is not None:
            ours = a.seat in members
            kontra = counted(name, a.seat, a.kontra)
            if name == GRAMMOPOI and ABSOLUT in announced:  # "Kontra auf Absolut bedingt selbiges"
                ab = announced[ABSOLUT]
                kontra = max(kontra, counted(ABSOLUT, ab.seat, ab.kontra))
            won = outcome is not None and outcome.made and outcome.declarers == ours
            out.append(Item(name, side, opposite, loud, for_side=ours, made=won, announced=True,
                            kontra=kontra, scale=game.premium_scale))
        elif outcome is not None and silent:
            if not outcome.made and spec.silent_lost is not None:
                silent = spec.silent_lost  # a failed silent attempt's own value (0: it costs nothing)
            if silent:
                out.append(Item(name, side, opposite, silent, for_side=outcome.declarers,
                                made=outcome.made, scale=game.premium_scale))
    v = valat_side(state)
    if mode == "replaces-game":
        # docs/rules.md §18.6: only announced premiums beside the Valat
        if valat_replaces_game(state, dialect):
            out = [_replacing_valat(state, game, p) if p.name == VALAT else p for p in out
                   if p.announced or p.name == VALAT]
        else:
            out = [p for p in out if p.name != VALAT]
        return out
    if v and mode == "premium":
        # docs/rules.md §16.5: "Bei Valat zählen alle Spielprämien, Materialprämien aber nur, wenn für die
        # Valatseite verloren, oder wenn ein Kontra erfolgt ist."
        out = [p for p in out if p.name not in MATERIAL or p.amount * v < 0 or p.kontra > 0]
    if v and mode == "replaces-all":
        out = [p for p in out if p.name == VALAT]  # the Valat replaces every other premium
    return out


# -- settlement --------------------------------------------------------------

def score_points_game(state: HandState, dialect: Dialect, game: ContractSpec, count: int, ours_pts: int,
                      premiums: list[Item]) -> Score:
    """Score of a game played for points (2 v 2 or 1 v 3)."""
    assert state.declarer is not None
    members = party(state)
    side = tuple(sorted(members))
    opposite = tuple(s for s in state.players if s not in members)
    won = ours_pts >= dialect.win
    kontra = _level(state, game, "", state.declarer, state.kontra_level)
    base = game.value if won else game.lost_value()
    note = ""
    if king_in_talon(game) == "at-end" and called_in_talon(state):
        # docs/rules.md §17.6: "muss der Spieler auf alle Fälle den einfachen Spielwert bezahlen, auch wenn
        # das Spiel kontriert wurde"
        won, kontra, base = False, 0, game.value
        note = "the called King lay in the talon"
    items = [Item("game", side, opposite, base, made=won, kontra=kontra)]
    if valat_replaces_game(state, dialect):
        items, note = [], "Valat: it replaces the game" + (
            " and the other premiums" if valat_mode(state, dialect) == "replaces-all" else "")
    return Score(side, (ours_pts, count - ours_pts), 3, won, (*items, *premiums), note=note)


def score_given_up(state: HandState, dialect: Dialect, game: ContractSpec,
                   specs: Mapping[str, PremiumSpec]) -> Score:
    """The declarer gave up: he pays the game to each of the three others
    (docs/rules.md §16.6, Besserrufer: "ist ... der kleinste Vogel im Blatt zu zahlen")."""
    assert state.declarer is not None
    amount = game.value
    default = "game-and-bird" if dialect.giveup_pays_bird else "game"
    if game.extra.get("bird") and state.options.get("giveup_price", default) == "game-and-bird":
        held = kr(state).get("pre_talon", state.hands[state.declarer])
        birds = [name for name, (card, _) in BIRDS.items() if card in held]
        if birds and birds[0] in specs:
            amount += specs[birds[0]].announced
    side = (state.declarer,)
    opposite = tuple(s for s in state.players if s != state.declarer)
    return Score(side, (0, 0), 3, False, (Item("game", side, opposite, amount, made=False),), note="given up")


def score_tricks_game(state: HandState, game: ContractSpec, count: int) -> Score:
    """Negative games (and their Bei-games): each declarer needs exactly
    ``game.goal.tricks`` tricks; he settles with every other player, Kontra
    counting individually."""
    pairs: dict[tuple[int, int], int] = kr(state).get("ann", {}).get("pairs", {})
    decl = declarers(state)
    items: list[Item] = []
    results = []
    for d in decl:
        made = sum(1 for t in state.tricks if t.winner == d)
        ok = made == game.goal.tricks
        results.append(ok)
        for other in state.players:
            if other != d:
                items.append(Item("game", (d,), (other,), game.value, made=ok,
                                  kontra=pairs.get((d, other), 0), label=f"seat {d}'s game"))
    ours = [c for t in state.tricks if t.winner in decl for c in t.cards]
    pts = thirds(ours)
    won: bool | None = all(results) if len(set(results)) == 1 else None
    note = ", ".join(f"seat {d}: {'made' if ok else 'failed'}" for d, ok in zip(decl, results, strict=True))
    return Score(tuple(decl), (pts, count - pts), 3, won, tuple(items), note=note)


def score_trischaken(state: HandState, game: ContractSpec) -> Score:
    """docs/rules.md §16.7: Jungfrau (no trick), Unterwertiger (at most 17/1),
    Oberwertiger (17/2 to 35/1), Bürgermeister (35/2 and more); each pays
    every lower one 10 cents per step."""
    piles = seat_piles(state, game)
    pts = {s: thirds(p) for s, p in piles.items()}
    tricks = {s: sum(1 for t in state.tricks if t.winner == s) for s in state.players}
    rank = {s: 0 if tricks[s] == 0 else 1 if pts[s] <= UNDER else 2 if pts[s] <= OVER else 3
            for s in state.players}
    items = [Item("trischaken", (b,), (a,), game.value * (rank[a] - rank[b]))
             for a in state.players for b in state.players if rank[a] > rank[b]]
    names = ("Jungfrau", "Unterwertiger", "Oberwertiger", "Bürgermeister")
    note = ", ".join(f"seat {s}: {names[rank[s]]}" for s in state.players)
    return _each_score(state, pts, items, note)


def score_trischaken_loser(state: HandState, game: ContractSpec, win: int) -> Score:
    """docs/rules.md §18.7: the player with the most points pays b (the game
    value, doubled from ``win`` thirds on) to each other; the forehand (Trischaker) who has
    or shares the most loses alone at 2b; a Jungfrau (no trick) takes the whole 3b, two
    share it rounded up to whole game values; two tied losers pay two values each, one to
    each other player (all four to a single Jungfrau); three tied losers pay one to the fourth."""
    piles = seat_piles(state, game)
    pts = {s: thirds(p) for s, p in piles.items()}
    tricks = {s: sum(1 for t in state.tricks if t.winner == s) for s in state.players}
    most = max(pts.values())
    losers = [s for s in state.players if pts[s] == most]
    if state.forehand in losers:
        losers = [state.forehand]
    others = [s for s in state.players if s not in losers]
    virgins = [s for s in others if tricks[s] == 0]
    v = game.value
    items: list[Item] = []
    if len(losers) == 1:
        loser = losers[0]
        b = (2 if loser == state.forehand else 1) * (2 if pts[loser] >= win else 1)
        share = -(-len(others) * b // len(virgins)) if virgins else b
        items = [Item("trischaken", (s,), (loser,), share * v) for s in virgins or others]
    elif len(losers) == 2:
        single = virgins[0] if len(virgins) == 1 else None
        items = [Item("trischaken", (s,), (loser,), (1 if single is None else 2) * v)
                 for loser in losers for s in ([single] if single is not None else others)]
    else:
        items = [Item("trischaken", (others[0],), (loser,), v) for loser in losers]
    note = f"loser: {', '.join(f'seat {s}' for s in losers)}"
    if virgins:
        note += f"; Jungfrau: {', '.join(f'seat {s}' for s in virgins)}"
    return _each_score(state, pts, items, note)


def score_fahrer(state: HandState, game: ContractSpec) -> Score:
    """docs/rules.md §17.7, Fahrer: the player with the most points pays each other the
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
    kontra = len(kr(state).get("fahrer", {}).get("by", []))
    items = []
    for loser in losers:
        each = game.value * (2 if pts[loser] > OVER else 1) * (2 if loser == state.forehand else 1)
        for s in virgins or others:
            amount = each * len(others) if virgins else each
            items.append(Item("fahrer", (s,), (loser,), amount, kontra=kontra))
    note = f"loser: {', '.join(f'seat {s}' for s in losers)}"
    if virgins:
        note += f"; Jungfrau: {', '.join(f'seat {s}' for s in virgins)}"
    score = _each_score(state, pts, items, note)
    return Score(score.declarers, score.points, 3, None, score.items, note=note,
                 seat_points=score.seat_points, next_round_factor=2)


def _each_score(state: HandState, pts: dict[int, int], items: list[Item], note: str) -> Score:
    seat_points = tuple(pts.get(s, 0) for s in range(state.seats))
    fh = state.forehand
    rest = sum(v for s, v in pts.items() if s != fh)
    return Score((fh,), (pts[fh], rest), 3, None, tuple(items), note=note, seat_points=seat_points)
