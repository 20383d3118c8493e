"""A dialog that gives way to typing: a player who starts a sentence while a dialog is open
(a wire to cut, a claim, a decision) is talking, not answering it. The sentence's first key
(a letter, or digits and then a letter, a space or punctuation: see `SentenceStart`) closes the
dialog, unanswered, and the keys a fast typist sent with it go to the chat, Enter included."""

from __future__ import annotations

from typing import Callable

from textual import events

from tui.widgets.sentence_start import SentenceStart

KEPT_KEYS = "0123456789?"
"""The printable keys a dialog keeps: digits pick in it, `?` lists the keys."""


class GivesWayToTyping:
    """Mixed into a `ModalScreen` (before it, for its `dismiss`); `typed` is where the
    sentence goes: the board that opens the dialog sets it to its chat."""

    typed: Callable[[str], None] | None = None
    closing = False
    """A sentence began: the dialog is on its way out, the keys behind it go to `typed`."""
    sentence_start: SentenceStart | None = None
    """The digits typed here, made on the first key (a dialog never answers a sentence)."""

    def on_key(self, event: events.Key) -> None:
        if self.typed is None:
            return
        if self.closing:
            # Keys a fast typist sent together reach this dialog until it is gone: they are
            # the rest of the sentence, Enter included.
            event.stop()
            event.prevent_default()
            if event.key == "enter":
                self.typed("\n")
            elif event.is_printable and event.character is not None:
                self.typed(event.character)
            else:
                # A command behind the sentence (Ctrl+K right after its Enter) is for the
                # table: pressed again once this dialog is gone.
                self.app.call_later(self.app.simulate_key, event.key)
            return
        if self.sentence_start is None:
            self.sentence_start = SentenceStart(self)
        text = self.sentence_start.key(event)
        if text is None:
            if not event.is_printable or event.character is None or event.character in KEPT_KEYS:
                return
            text = event.character
        event.stop()
        event.prevent_default()
        self.closing = True
        self.dismiss(None)
        self.typed(text)
