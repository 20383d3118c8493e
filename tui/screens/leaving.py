"""Leaving a running game or quitting the app: one question, whichever key asked it (Esc at the
table, Ctrl+Q anywhere) and however the app reached its table (design.md, "Leaving"; the
questions' keys: `screens/question.py`).

It names what would end, offers what may be done, and its first answer, which Esc also gives,
ends nothing. When this app hosts tables for others, quitting asks what becomes of them: kept
running in the background, or closed for everyone, who are told so.
"""

from __future__ import annotations

from typing import Sequence

from rich.markup import escape

from tui.screens.question import Answer, Question

STAY, LOBBY, QUIT, KEEP, CLOSE = "stay", "lobby", "quit", "keep", "close"


def leaving_question(*, at_game: str | None, hosting: Sequence[str],
                     may_keep: bool = True) -> Question[str]:
    """`at_game`: the running game this player sits at, in words ("Time Bomb at Baker
    Street"), if any. `hosting`: the tables this app hosts for others, each with who is at it
    (`LocalHosts.hosted_words`). `may_keep`:
    quitting may leave them running in the background (not in a browser: a table does not
    outlive its page there, see `LocalHosts.may_keep_in_background`)."""
    lines, answers = [], [Answer("Stay", STAY)]
    if at_game:
        lines.append(f"You are playing {escape(at_game)}. It goes on without you, and your seat "
                     "stays yours: rejoin it from the lobby, where its table is marked ★ (even "
                     "after closing Gaslight).")
        answers.append(Answer("Back to the lobby", LOBBY))
    tables = "".join(f"\n  {escape(table)}" for table in hosting)
    if hosting and may_keep:
        lines.append(f"You host on this computer:{tables}\nIf you quit, keep it running: it "
                     "goes on in the background here, and you come back to your seat from the "
                     "lobby (where you can also stop it). Or close it: everyone there is told "
                     "you closed it.")
        answers += [Answer("Quit, keeping it running", KEEP),
                    Answer("Quit, closing it for everyone", CLOSE)]
    elif hosting:
        lines.append(f"You host in this page:{tables}\nIf you quit, it closes for everyone "
                     "there, who are told you closed it: in a browser, a table does not outlive "
                     "its page.")
        answers.append(Answer("Quit, closing it for everyone", CLOSE))
    else:
        answers.append(Answer("Quit Gaslight", QUIT))
    lines.insert(0, "Leave the game?" if at_game else "Quit Gaslight?")
    quits = next(a.value for a in reversed(answers) if a.value in (KEEP, CLOSE, QUIT))
    return Question("\n".join(lines), answers, safe=STAY,
                    quit_answer=KEEP if hosting and may_keep else quits)
