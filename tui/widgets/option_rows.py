"""Changing some rows of an `OptionList` without drawing all of them again.

Replacing an option's prompt the public way (`replace_option_prompt_at_index`), or clearing
and adding the options, drops every row's rendering and, for a list sized by its rows, lays
the screen out again: a board whose one row changed (a replay step, a state) paid for all of
them. Here only the rows whose prompts changed are rendered again.
"""

from __future__ import annotations

from typing import Sequence

from textual.visual import VisualType
from textual.widgets import OptionList
from textual.widgets.option_list import Option


def replace_prompts(options: OptionList, prompts: Sequence[VisualType],
                    disabled: Sequence[bool] | None = None) -> None:
    """Give the list's rows these prompts (and enabled states), one each, in order."""
    assert len(prompts) == options.option_count
    cache = options._option_render_cache  # (option, style, padding) -> that row's strips
    changed = False
    for index, prompt in enumerate(prompts):
        option = options.get_option_at_index(index)
        if option.prompt != prompt:
            option._set_prompt(prompt)
            for key in [key for key in cache.keys() if key[0] is option]:
                cache.discard(key)
            changed = True
        if disabled is not None and option.disabled != disabled[index]:
            option.disabled = disabled[index]  # a style of its own: a row cached apart
            changed = True
    if changed:
        options._line_cache.clear()  # a row's height may have changed with its prompt
        options.refresh()


def show_options(options: OptionList, rows: Sequence[Option]) -> None:
    """Make the list show `rows`: when they are the same rows as now (the same ids in the same
    order, most states) only the changed prompts are drawn again, else the list is rebuilt."""
    ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
    if [row.id for row in rows] == ids:
        replace_prompts(options, [row.prompt for row in rows], [row.disabled for row in rows])
    else:
        options.clear_options()
        options.add_options(rows)
