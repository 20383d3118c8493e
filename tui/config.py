"""The player's settings, kept in the user config directory: their name and what they last
chose to play against bots.

`GASLIGHT_NAME` overrides the stored name (tests and scripted runs never touch the real config),
and `GASLIGHT_CONFIG_DIR` moves the directory.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

NAME_ENV = "GASLIGHT_NAME"
CONFIG_DIR_ENV = "GASLIGHT_CONFIG_DIR"
MAX_NAME = 24


class InvalidName(ValueError):
    """A display name a player typed that cannot be used."""


def config_dir() -> Path:
    override = os.environ.get(CONFIG_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs  # only when needed: it is not free at startup

    return Path(platformdirs.user_config_dir("gaslight", appauthor=False))


def config_path() -> Path:
    return config_dir() / "config.json"


def clean_name(text: str) -> str:
    """A display name: trimmed, inner spaces collapsed, printable, 1 to MAX_NAME characters."""
    name = " ".join(text.split())
    if not name:
        raise InvalidName("type a name the other players will see")
    if not name.isprintable():
        raise InvalidName("a name can only hold printable characters")
    if len(name) > MAX_NAME:
        raise InvalidName(f"a name has at most {MAX_NAME} characters; this one has {len(name)}")
    return name


def _read() -> dict:
    try:
        data = json.loads(config_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def load_name() -> str | None:
    """The player's name: from the environment, else the config file, else None (ask)."""
    override = os.environ.get(NAME_ENV)
    if override:
        try:
            return clean_name(override)
        except InvalidName:
            return None
    stored = _read().get("name")
    if isinstance(stored, str):
        try:
            return clean_name(stored)
        except InvalidName:
            return None
    return None


def save_name(name: str) -> None:
    """Remember `name`, keeping any other settings in the file."""
    save_setting("name", clean_name(name))


def load_setting(key: str) -> Any:
    """A stored setting, None when absent; the caller checks its shape (the file is the
    player's to edit)."""
    return _read().get(key)


def save_setting(key: str, value: Any) -> None:
    """Store one JSON-able setting, keeping the others."""
    data = _read()
    data[key] = value
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)


def bell_on() -> bool:
    """The terminal rings its bell when the game starts waiting for this player: on unless
    the player turned it off."""
    return load_setting("bell") is not False
