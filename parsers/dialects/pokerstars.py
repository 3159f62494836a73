"""PokerStars: the legacy "PokerStars Game #" (2008-2013) and the current "PokerStars Hand #"
formats, cash, tournaments, home games and mixed games (each hand takes its game from its own
header). Notes on the format are in docs/sites/pokerstars.md.
"""

from __future__ import annotations

import re
from typing import Final

from studdraw.parsers.dialects.base import (
    Dialect,
    DialectTransformer,
    HandParseError,
    LineToken,
    hand_start_pattern,
    parse_amount,
    parse_local_time,
    to_utc,
)
from studdraw.parsers.model import (
    EventKind,
    Game,
    Outcome,
    Structure,
    Tournament,
)

_NAME: Final = r".+"  # greedy: the verb is anchored at the line end, so names may hold ": "
_AMOUNT: Final = r"[^\s\[\]()]+"

LINE_PATTERNS: Final = (
    (
        "HEADER",
        r"\ufeff?PokerStars (?:Zoom |Rush |Home )?(?:Hand|Game|GAME) #(?P<hdr_id>\d+): +"
        r"(?:\{(?P<hdr_club>[^}]*)\} +)?(?P<hdr_rest>.+?) - "
        r"(?P<hdr_time>\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}(?::\d{2})?)"
        r"(?: (?P<hdr_zone>[A-Z]{2,5}))?"
        r"(?: \[(?P<hdr_time2>\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}(?::\d{2})?)"
        r"(?: (?P<hdr_zone2>[A-Z]{2,5}))?\])?",
    ),
    (
        "TABLE",
        r"Table '(?P<tbl_name>.*)' (?:(?P<tbl_max>\d+)-max ?)?(?:\((?:Play|Real) Money\) ?)?"
        r"(?:Seat #(?P<tbl_button>\d+) is the button)?",
    ),
    (
        "SEAT",
        r"Seat (?P<seat_no>\d+): (?P<seat_name>.+?) \((?P<seat_stack>[^()]*?) in chips"
        r"(?:, [^()]* bounty)?\)(?P<seat_state> is sitting out| out of hand \(.*\))?",
    ),
    (
        "STREET",
        r"\*\*\* (?P<street_name>3rd STREET|4th STREET|5th STREET|6th STREET|7th STREET|RIVER"
        r"|DEALING HANDS|FIRST DRAW|SECOND DRAW|THIRD DRAW) \*\*\*"
        r"(?: \[(?P<street_card>[^\]]*)\])?",
    ),
    ("SHOWDOWN", r"\*\*\* SHOW ?DOWN \*\*\*"),
    ("SUMMARY", r"\*\*\* SUMMARY \*\*\*"),
    # before the actor lines: a chat line saying "x: folds" is chat, not a fold
    ("CHAT", r"(?P<chat_name>.+?) said, \"(?P<chat_text>.*)\""),
    ("DEALT", r"Dealt to (?P<dealt_name>.+?) (?:\[[^\]]*\] )?\[(?P<dealt_cards>[^\]]*)\]"),
    (
        "ACTION",
        rf"(?P<act_name>{_NAME}): (?P<act_verb>folds|checks|calls|bets|raises|completes it to"
        r"|brings[ -]in(?: low)? for)"
        rf"(?: (?P<act_amt>{_AMOUNT})(?: to (?P<act_to>{_AMOUNT}))?)?"
        r"(?P<act_allin> and is all-in)?(?: and has reached the \S+ cap)?"
        r"(?: \[(?P<act_cards>[^\]]*)\])?(?: \(disconnect\))?",
    ),
    (
        "POST",
        rf"(?P<post_name>{_NAME}): posts (?P<post_kind>the ante|small blind|big blind"
        rf"|small & big blinds|button blind|straddle) (?P<post_amt>{_AMOUNT})"
        r"(?P<post_allin> and is all-in)?",
    ),
    (
        "DISCARD",
        rf"(?P<dis_name>{_NAME}): discards (?P<dis_count>\d+) cards?"
        r"(?: \[(?P<dis_cards>[^\]]*)\])?",
    ),
    ("STAND_PAT", rf"(?P<pat_name>{_NAME}): stands pat(?: on \[(?P<pat_cards>[^\]]*)\])?"),
    (
        "SHOWS",
        rf"(?P<show_name>{_NAME}): shows \[(?P<show_cards>[^\]]*)\](?: \((?P<show_desc>.*)\))?",
    ),
    ("MUCKS", rf"(?P<muck_name>{_NAME}): (?P<muck_verb>mucks hand|doesn't show hand)"),
    ("UNCALLED", rf"Uncalled bet \((?P<unc_amt>{_AMOUNT})\) returned to (?P<unc_name>{_NAME})"),
    (
        "COLLECT",
        rf"(?P<col_name>{_NAME}) collected (?P<col_amt>{_AMOUNT}) from "
        r"(?P<col_pot>pot|main pot|side pot(?:-\d+)?)",
    ),
    ("CAPPED", r"Betting is capped"),
    ("OPEN_PAIR", r"Pair on board - a double bet is allowed"),
    ("NO_LOW", r"No low hand qualified"),
    ("CANCELLED", r"Hand cancelled"),
    ("RESHUFFLE", r"The deck is reshuffled"),
    ("TOTAL", rf"Total pot (?P<tot_amt>{_AMOUNT})(?P<tot_pots>[^|]*?) \| Rake (?P<tot_rake>\S+).*"),
    ("BOARD", r"Board \[(?P<board_cards>[^\]]*)\]"),
    ("SUMMARY_SEAT", r"Seat (?P<ss_seat>\d+): (?P<ss_rest>.*)"),
    ("JOIN", rf"(?P<join_name>{_NAME}) joins the table at seat #\d+"),
    (
        "LEAVE",
        rf"(?P<leave_name>{_NAME}) (?:leaves the table"
        r"|was removed from the table(?: for failing to post)?)",
    ),
    ("SIT_OUT", r"(?P<out_name>.+?):? (?:sits out|is sitting out)"),
    ("SIT_IN", rf"(?P<in_name>{_NAME}) has returned"),
    (
        "NOTE",
        r"(?P<note_text>.+ (?:is connected|is disconnected|has timed out(?: while disconnected"
        r"| while being disconnected)?|finished the tournament in .*|wins the tournament.*"
        r"|re-buys.*|takes the add-on.*|will be allowed to play after the button"
        r"|cashed out the hand.*|wins the .*bounty.*)|[^:]*)",
    ),  # last: the colon-free fallback keeps unknown announcements as notes
)

GAMES: Final = {
    "7 card stud": Game.STUD,
    "7 card stud hi/lo": Game.STUD8,
    "razz": Game.RAZZ,
    "triple draw 2-7 lowball": Game.TD27,
    "triple draw a-5 lowball": Game.TDA5,
    "badugi": Game.BADUGI,
}
STRUCTURES: Final = {
    "limit": Structure.FIXED,
    "fixed limit": Structure.FIXED,
    "pot limit": Structure.POT,
    "no limit": Structure.NO,
    "spread limit": Structure.SPREAD,
}
STUD_STREETS: Final = {
    "3rd STREET": 0,
    "4th STREET": 1,
    "5th STREET": 2,
    "6th STREET": 3,
    "7th STREET": 4,
    "RIVER": 4,
}
DRAW_STREETS: Final = {"DEALING HANDS": 0, "FIRST DRAW": 1, "SECOND DRAW": 2, "THIRD DRAW": 3}
CURRENCY_CODES: Final = ("USD", "EUR", "GBP", "CAD", "INR", "CNY")
CURRENCY_SYMBOLS: Final = {"$": "USD", "€": "EUR", "£": "GBP", "₹": "INR", "¥": "CNY"}

_TOURNAMENT: Final = re.compile(
    r"(?:Zoom |Rush )?Tournament #(?P<tid>\d+), (?:Table #\d+, )?"
    r"(?P<buyin>Freeroll|[^\s]+(?: (?:USD|EUR|GBP|CAD|INR|CNY|FPP|SC))?) +(?P<rest>.+)",
    re.IGNORECASE,
)
_LEVELLED: Final = re.compile(
    r"(?P<game>.+?) - (?P<level>(?:Match Round [IVXLC\d]+, )?Level [IVXLC\d]+)"
    r" \((?P<stakes>[^)]*)\)",
    re.IGNORECASE,
)
_GAME_STAKES: Final = re.compile(r"(?P<game>.+?) \((?P<inner>[^)]*)\)")
_LIMIT_SUFFIX: Final = re.compile(
    r"(?P<name>.+?) (?P<limit>fixed limit|pot limit|no limit|spread limit|limit)", re.IGNORECASE
)
_STAKE_PAIR: Final = re.compile(
    r"(?P<small>[^\s/]+)/(?P<big>[^\s/]+)(?: - [^\s]+ Cap -)?(?: (?P<iso>[A-Z]{3}))?"
)
_HAS_STAKES: Final = re.compile(r"\d/\S*\d")  # "$0.50/$1", not "Hi/Lo"
_BUYIN_PART: Final = re.compile(r"[^\d.,]*([\d.,]+)")
_COLLECT_POT: Final = re.compile(r"side pot(?:-(\d+))?")
_SUMMARY_CARDS: Final = re.compile(r" (?P<verb>showed|mucked) \[(?P<cards>[^\]]*)\]")
_TIME_FORMATS: Final = ("%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M")


class PokerStarsTransformer(DialectTransformer):
    site = "pokerstars"

    # --- header and seats -------------------------------------------------------------------
    def on_header(self, token: LineToken) -> None:
        found = token.match
        b = self.b
        b.site_hand_id = found["hdr_id"]
        rest = found["hdr_rest"]
        tournament = _TOURNAMENT.fullmatch(rest)
        if tournament:
            rest = tournament["rest"]
        levelled = _LEVELLED.fullmatch(rest)
        if levelled:
            game_text, stakes_text = levelled["game"], levelled["stakes"]
        else:
            plain = _GAME_STAKES.fullmatch(rest)
            if plain is None:
                raise HandParseError(f"unreadable game and stakes: {rest!r}", token.number)
            game_text, stakes_text = plain["game"], plain["inner"]
        # Mixed games name the rotation and put the hand's own game in parentheses:
        # "HORSE (Razz Limit, $2/$4 USD)", "8-Game (Razz Limit) - Level IV (200/400)".
        rotation = _GAME_STAKES.fullmatch(game_text)
        if rotation:
            b.mixed, game_text = rotation["game"], rotation["inner"]
        elif ", " in stakes_text:
            inner_game, _, inner_stakes = stakes_text.partition(", ")
            if not _HAS_STAKES.search(inner_game):
                b.mixed, game_text, stakes_text = game_text, inner_game, inner_stakes
        self._game(game_text, token.number)
        if tournament:
            self._tournament(tournament, levelled["level"] if levelled else None, token.number)
        self._stakes(stakes_text, token.number)
        if found["hdr_club"]:
            b.notes.append(f"home game club {found['hdr_club']}")
        self._time(found, token.number)

    def _game(self, text: str, line: int) -> None:
        limit = _LIMIT_SUFFIX.fullmatch(text.strip())
        name = limit["name"] if limit else text
        game = GAMES.get(name.lower())
        if game is None or limit is None:
            raise HandParseError(
                f"{text} is not a stud or triple-draw game",
                line,
                Outcome.UNSUPPORTED,
                game_label=text,
            )
        self.b.game = game
        self.b.structure = STRUCTURES[limit["limit"].lower()]

    def _tournament(self, found: re.Match[str], level: str | None, line: int) -> None:
        b = self.b
        b.scale = 1
        b.currency = "CHIPS"
        buyin = found["buyin"]
        amounts = _BUYIN_PART.findall(buyin)
        currency = next((iso for iso in CURRENCY_CODES if iso in buyin), None)
        if currency is None:
            currency = next((CURRENCY_SYMBOLS[s] for s in CURRENCY_SYMBOLS if s in buyin), None)
        buy_in = fee = None
        if buyin.lower() == "freeroll":
            buy_in = fee = 0
        elif amounts and currency:
            cents = [self._cents(amount, line) for amount in amounts]
            buy_in = sum(cents[:-1]) if len(cents) > 1 else cents[0]
            fee = cents[-1] if len(cents) > 1 else 0
        b.tournament = Tournament(found["tid"], buy_in, fee, currency, level)

    def _cents(self, amount: str, line: int) -> int:
        try:
            return parse_amount(amount, 100)
        except ValueError as error:
            raise HandParseError(str(error), line) from None

    def _stakes(self, text: str, line: int) -> None:
        b = self.b
        pair = _STAKE_PAIR.search(text)
        if pair is None:
            raise HandParseError(f"unreadable stakes {text!r}", line)
        if b.tournament is None:
            symbol = next((s for s in CURRENCY_SYMBOLS if s in text), None)
            if pair["iso"]:
                b.currency = pair["iso"]
            elif symbol:
                b.currency = CURRENCY_SYMBOLS[symbol]
            else:
                b.currency, b.scale = "PLAY", 1
        small, big = b.money(pair["small"], line), b.money(pair["big"], line)
        if b.structure in (Structure.FIXED, Structure.SPREAD):
            b.small_bet, b.big_bet = small, big
            if b.game is not None and b.game.is_draw:
                b.big_blind = small  # limit draw: the big blind is the small bet
        else:
            # Pot- and no-limit headers give the blinds; the minimum bet is the big blind.
            b.small_blind, b.big_blind = small, big
            b.small_bet = b.big_bet = big

    def _time(self, found: re.Match[str], line: int) -> None:
        b = self.b
        # The bracketed time, when present, is ET: the room's reference clock.
        text, zone = (
            (found["hdr_time2"], found["hdr_zone2"])
            if found["hdr_time2"]
            else (found["hdr_time"], found["hdr_zone"])
        )
        b.site_time = f"{text} {zone}" if zone else text
        try:
            b.started_at = to_utc(parse_local_time(text, _TIME_FORMATS), zone or "ET")
        except ValueError as error:
            raise HandParseError(str(error), line) from None
        if zone is None:
            b.notes.append("no time zone printed; ET assumed")

    def on_table(self, token: LineToken) -> None:
        found = token.match
        b = self.b
        b.table = found["tbl_name"]
        b.max_seats = int(found["tbl_max"]) if found["tbl_max"] else None
        b.button = int(found["tbl_button"]) if found["tbl_button"] else None

    def on_seat(self, token: LineToken) -> None:
        found = token.match
        state = found["seat_state"] or ""
        # "out of hand" players were moved in after the deal: listed, but not in this hand.
        if "out of hand" in state:
            self.b.notes.append(f"{found['seat_name']} listed but out of hand")
            return
        self.b.seat(
            int(found["seat_no"]),
            found["seat_name"],
            self.b.money(found["seat_stack"], token.number),
            sitting_out="sitting out" in state,
        )

    # --- streets --------------------------------------------------------------------------
    def on_street(self, token: LineToken) -> None:
        found = token.match
        name = found["street_name"]
        assert self.b.game is not None
        streets = STUD_STREETS if self.b.game.is_stud else DRAW_STREETS
        if name not in streets:
            raise HandParseError(f"{name} is not a street of {self.b.game}", token.number)
        self.b.new_street(streets[name], token.number, name)
        if found["street_card"]:
            cards = self.b.cards(found["street_card"], token.number)
            self.b.add(EventKind.COMMUNITY, token.number, cards=cards, up=(True,) * len(cards))

    def on_dealt(self, token: LineToken) -> None:
        found = token.match
        b = self.b
        assert b.game is not None
        player = found["dealt_name"]
        cards = b.cards(found["dealt_cards"], token.number)
        if b.game.is_draw:
            b.hero = player
            kind = EventKind.DEAL if b.street == 0 else EventKind.DRAW
            b.add(kind, token.number, player, cards=cards, up=(False,) * len(cards))
            return
        up: tuple[bool, ...]
        if b.street == 0:
            if len(cards) == 3:
                b.hero = player
                up = (False, False, True)
            elif len(cards) == 1:  # an opponent: only the door card is shown
                cards, up = (None, None, *cards), (False, False, True)
            else:
                raise HandParseError(f"3rd street deals 3 cards, not {len(cards)}", token.number)
        else:
            up = (b.street < 4,) * len(cards)
        b.add(EventKind.DEAL, token.number, player, cards=cards, up=up)

    def on_post(self, token: LineToken) -> None:
        found = token.match
        b = self.b
        player, kind = found["post_name"], found["post_kind"]
        amount = b.money(found["post_amt"], token.number)
        all_in = bool(found["post_allin"])
        if kind == "the ante":
            b.add(EventKind.ANTE, token.number, player, amount=amount, all_in=all_in)
        elif kind == "small blind":
            b.wager(EventKind.SMALL_BLIND, token.number, player, amount=amount, all_in=all_in)
        elif kind == "big blind":
            b.wager(EventKind.BIG_BLIND, token.number, player, amount=amount, all_in=all_in)
        elif kind == "small & big blinds":
            # One line for a dead small blind plus a live big blind.
            live = min(amount, b.small_bet if b.structure is Structure.FIXED else b.big_blind)
            b.add(EventKind.DEAD, token.number, player, amount=amount - live)
            b.wager(EventKind.POST, token.number, player, amount=live, all_in=all_in)
        else:
            b.wager(EventKind.POST, token.number, player, amount=amount, all_in=all_in)

    def on_action(self, token: LineToken) -> None:
        found = token.match
        b = self.b
        player, verb, line = found["act_name"], found["act_verb"], token.number
        all_in = bool(found["act_allin"])
        amount = b.money(found["act_amt"], line) if found["act_amt"] else None
        if verb == "folds":
            b.add(EventKind.FOLD, line, player)
        elif verb == "checks":
            b.add(EventKind.CHECK, line, player)
        elif amount is None:
            raise HandParseError(f"{verb} without an amount", line)
        elif verb == "calls":
            b.wager(EventKind.CALL, line, player, amount=amount, all_in=all_in)
        elif verb == "bets":
            # In stud the first "bets" on 3rd street after the bring-in is the completion.
            kind = EventKind.BET
            if b.game is not None and b.game.is_stud and b.street == 0 and self._bring_in_open():
                kind = EventKind.COMPLETE
            b.wager(kind, line, player, amount=amount, all_in=all_in)
        elif verb == "raises":
            to = b.money(found["act_to"], line) if found["act_to"] else None
            if to is None:
                raise HandParseError("raise without a total", line)
            b.wager(EventKind.RAISE, line, player, to=to, all_in=all_in)
        elif verb == "completes it to":
            b.wager(EventKind.COMPLETE, line, player, to=amount, all_in=all_in)
        else:  # brings in
            b.wager(EventKind.BRING_IN, line, player, amount=amount, all_in=all_in)

    def _bring_in_open(self) -> bool:
        """Whether 3rd street has a bring-in and nothing above it yet."""
        kinds = [e.kind for e in self.b.events if e.street == 0]
        return EventKind.BRING_IN in kinds and not any(
            kind in (EventKind.COMPLETE, EventKind.BET, EventKind.RAISE) for kind in kinds
        )

    def on_discard(self, token: LineToken) -> None:
        found = token.match
        count = int(found["dis_count"])
        cards = self.b.cards(found["dis_cards"], token.number) if found["dis_cards"] else ()
        self.b.add(EventKind.DISCARD, token.number, found["dis_name"], count=count, cards=cards)

    def on_stand_pat(self, token: LineToken) -> None:
        found = token.match
        cards = self.b.cards(found["pat_cards"], token.number) if found["pat_cards"] else ()
        self.b.add(EventKind.STAND_PAT, token.number, found["pat_name"], count=0, cards=cards)

    def on_reshuffle(self, token: LineToken) -> None:
        self.b.add(EventKind.RESHUFFLE, token.number)

    def on_capped(self, token: LineToken) -> None:
        self.b.add(EventKind.CAPPED, token.number)

    def on_open_pair(self, token: LineToken) -> None:
        self.b.add(EventKind.OPEN_PAIR, token.number)

    def on_cancelled(self, token: LineToken) -> None:
        game = str(self.b.game) if self.b.game else None
        raise HandParseError(
            "hand cancelled by the room", token.number, Outcome.UNSUPPORTED, game_label=game
        )

    # --- showdown and money out -------------------------------------------------------------
    def on_showdown(self, token: LineToken) -> None:
        """A section marker: the grammar checks its place; it carries no event."""

    def on_shows(self, token: LineToken) -> None:
        found = token.match
        cards = self.b.cards(found["show_cards"], token.number)
        self.b.add(
            EventKind.SHOW, token.number, found["show_name"], cards=cards, text=found["show_desc"]
        )

    def on_mucks(self, token: LineToken) -> None:
        found = token.match
        if found["muck_verb"] == "mucks hand":
            self.b.add(EventKind.MUCK, token.number, found["muck_name"])
        else:
            self.b.add(EventKind.NOTE, token.number, found["muck_name"], text="doesn't show hand")

    def on_uncalled(self, token: LineToken) -> None:
        found = token.match
        amount = self.b.money(found["unc_amt"], token.number)
        self.b.add(EventKind.UNCALLED, token.number, found["unc_name"], amount=amount)

    def on_collect(self, token: LineToken) -> None:
        found = token.match
        side = _COLLECT_POT.fullmatch(found["col_pot"])
        pot = f"side{side.group(1) or 1}" if side else "main"
        amount = self.b.money(found["col_amt"], token.number)
        self.b.add(EventKind.COLLECT, token.number, found["col_name"], amount=amount, pot=pot)

    def on_no_low(self, token: LineToken) -> None:
        self.b.add(EventKind.NOTE, token.number, text="no low hand qualified")

    # --- summary ----------------------------------------------------------------------------
    def on_summary(self, token: LineToken) -> None:
        """A section marker: the grammar checks its place; it carries no event."""

    def on_total(self, token: LineToken) -> None:
        found = token.match
        self.b.total_pot = self.b.money(found["tot_amt"], token.number)
        self.b.rake = self.b.money(found["tot_rake"], token.number)

    def on_board(self, token: LineToken) -> None:
        """The summary's board repeats the community card already read on its street."""

    def on_summary_seat(self, token: LineToken) -> None:
        """Summary lines reveal mucked hands the showdown section only calls "mucks hand"."""
        found = _SUMMARY_CARDS.search(token.match["ss_rest"])
        if found is None or found["verb"] != "mucked":
            return
        seat = int(token.match["ss_seat"])
        player = next((s.player for s in self.b.seats if s.seat == seat), None)
        if player is None:
            raise HandParseError(f"summary names seat {seat}, which is empty", token.number)
        cards = self.b.cards(found["cards"], token.number)
        self.b.add(EventKind.MUCK, token.number, player, cards=cards)


class PokerStars(Dialect):
    name = "pokerstars"
    grammar_file = "pokerstars.lark"
    line_patterns = LINE_PATTERNS
    section_lines = frozenset(
        {"HEADER", "TABLE", "STREET", "SHOWDOWN", "SUMMARY", "CANCELLED", "TOTAL", "BOARD"}
    )
    hand_start = hand_start_pattern(
        "PokerStars Game #",
        "PokerStars Hand #",
        "PokerStars GAME #",
        "PokerStars Home Game #",
        "PokerStars Zoom Hand #",
        "PokerStars Rush Hand #",
    )
    hand_id_pattern = re.compile(r"#(?P<hand_id>\d+):")
    transformer = PokerStarsTransformer
