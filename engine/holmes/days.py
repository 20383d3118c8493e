"""The flow of the week (HO-9 to HO-13, HO-22, HO-38, HO-42 to HO-44): after each decision,
`settle` resolves what offers no choice and moves play on: the next action, the end of the
day and its spent characters, the next day's character or villain, and the end of the game.

This is a mixin of `engine.holmes.game.Holmes`; it reads and changes that game's state.
"""

from __future__ import annotations

from typing import Any

from engine.core import Outcome
from engine.holmes.catalogue import (
    DAYS,
    INITIAL,
    LANGDALE,
    MARKERS,
    MORAN,
    MORIARTY,
    SIDE_NAMES,
    VILLAINS,
    character_name,
    clue_name,
)
from engine.holmes.pending import Pending, answers_decision
from engine.holmes.scoring import Holding, score, winner

Action = dict[str, Any]


class DaysMixin:
    # -- villains' decisions ----------------------------------------------------------------

    @answers_decision
    def act_lay_down(self, seat: int, action: Action) -> None:
        self.queue.pop(0)
        character = action["character"]
        self.markers[seat][character] = False
        self.log("lay_down", "{0} lays their marker on " + character_name(character)
                 + " down (Moran).", (seat,), character=character)

    @answers_decision
    def act_return_im(self, seat: int, action: Action) -> None:
        self.queue.pop(0)
        self.pay(seat, 2)
        self.log("moriarty_return", "{0} returns 2 IM (Moriarty).", (seat,), amount=2)

    # -- resolving what needs no choice, and the flow of days -----------------------------

    def settle(self) -> None:
        while self.outcome is None:
            if self.queue:
                if not self.auto_resolve(self.queue[0]):
                    return
            elif self.stage == "villain":
                self.draw_character()
            elif self.stage == "action":
                self.actions_done += 1
                if self.actions_done < 2 * self.actions_each:
                    self.begin_turn()
                else:
                    self.end_day()
            elif self.stage == "final":
                self.finish_game()
            else:
                raise AssertionError(f"nothing pending in stage {self.stage!r}")

    def auto_resolve(self, head: Pending) -> bool:
        """Resolve the head decision if it offers no real choice; True if it did."""
        kind, seat = head.kind, head.seat
        if kind == "skill":
            if head.character == LANGDALE and len(head.drawn) == 1:
                self.keep_drawn(seat, 0)
                return True
            if self.skill_steps(head):
                return False
            if head.started:
                self.complete_skill(head)
            else:
                self.queue.pop(0)
                self.log("skill_unusable", "{0} can no longer use "
                         + character_name(head.character) + "'s skill.", (seat,),
                         character=head.character)
            return True
        if kind == "finish":
            if self.can_reserve(seat):
                return False
        elif kind == "assign":
            if self.assign_options(head):
                return False
        elif kind == "buy":
            if self.areas[seat].im >= 1 and (self.deck or self.discard):
                return False
            self.log("no_buy", "{0} cannot buy a card (Von Kramm).", (seat,))
        elif kind == "moriarty":
            if self.areas[seat].visible_cards():
                return False
            amount = min(2, self.areas[seat].im)
            self.pay(seat, amount)
            self.log("moriarty_return", "{0} has no visible clue and returns " + f"{amount} IM "
                     "(Moriarty).", (seat,), amount=amount)
        else:
            return False
        self.queue.pop(0)
        return True

    def begin_turn(self) -> None:
        self.reserved_this_action = False
        self.queue.append(Pending("move", self.active()))

    def end_day(self) -> None:
        if self.day == DAYS:
            self.begin_final()
            return
        # In the line's order: a set's order changes from one process to the next.
        spent = [
            c for c in self.board
            if c not in INITIAL and c in self.markers[0] and c in self.markers[1]
        ]
        self.spent = set(spent)
        if spent:
            self.log("spent", "End of Day " + f"{self.day}: "
                     + ", ".join(map(character_name, spent)) + " spent for tomorrow.",
                     spent=sorted(spent))
        self.day += 1
        for markers in self.markers:
            for character in markers:
                markers[character] = True
        self.moran_today = False
        self.log("day", f"Day {self.day} begins; all markers stand up.", day=self.day)
        self.stage = "villain"
        self.draw_character()

    def draw_character(self) -> None:
        """HO-11 step 2 and HO-42: the day's character, resolving villains first."""
        character = self.char_deck.pop()
        if character in VILLAINS:
            self.villains_drawn.append(character)
            self.log("villain", character_name(character) + " appears!", character=character)
            first, second = self.order
            if character == MORIARTY:
                seats = (first, second, second, first)
                self.queue += [Pending("moriarty", s, MORIARTY) for s in seats]
            else:
                self.moran_today = True
                self.queue += [Pending("moran", s, MORAN) for s in (first, second)]
            return
        self.board.append(character)
        self.day_of[character] = self.day
        self.log("character", character_name(character) + f" arrives on Day {self.day}.",
                 character=character)
        self.stage = "action"
        self.actions_done = 0
        self.actions_each = MARKERS - 1 if self.moran_today else MARKERS
        self.begin_turn()

    def begin_final(self) -> None:
        """HO-38: reveal hidden clues, then each may assign their unassigned Wildcards."""
        self.stage = "final"
        self.revealed = [area.reveal_hidden() for area in self.areas]
        for seat in self.order:
            cards = self.revealed[seat]
            self.log("reveal", "{0} reveals " + (", ".join(map(clue_name, cards)) or "nothing")
                     + ".", (seat,), cards=list(cards))
            area = self.areas[seat]
            self.queue.append(Pending("assign", seat, wild_gained=area.free_wild))

    def finish_game(self) -> None:
        holdings = [
            Holding(dict(a.clues), frozenset(a.wild_on), a.free_wild, a.reserved is not None)
            for a in self.areas
        ]
        self.scores = score(holdings)
        totals = [s.total for s in self.scores]
        im = [a.im for a in self.areas]
        best = winner(totals, im)
        teams = self.seat_teams()
        if best is None:
            reason = "draw"
            text = f"{totals[0]} to {totals[1]}, and equal IM: the case remains unsolved."
        else:
            reason = "score" if totals[0] != totals[1] else "investigation_markers"
            name = SIDE_NAMES[self.sides[best]]
            if reason == "score":
                text = f"{name} wins, {max(totals)} to {min(totals)}."
            else:
                text = f"{name} wins on investigation markers at {totals[0]} all."
        winners = frozenset() if best is None else frozenset((best,))
        self.finish(Outcome(winners, teams, reason, text,
                            None if best is None else teams[best]))
