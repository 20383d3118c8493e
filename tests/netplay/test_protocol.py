"""The sans-IO protocol: framing, limits and message validation, fed bytes without sockets."""

from __future__ import annotations

import asyncio

import msgpack
import pytest

from netplay import protocol
from netplay.frames import (
    MAX_FRAME,
    MAX_NESTING,
    PROTOCOL_VERSION,
    FrameDecoder,
    encode,
    message,
    read_message,
)
from netplay.legal import GROUP_KEY, pack_legal, unpack_legal
from netplay.errors import ProtocolError
from netplay.protocol import parse_client_message
from netplay.text import clean_text


def frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


def reader_with(data: bytes, eof: bool = True) -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    reader.feed_data(data)
    if eof:
        reader.feed_eof()
    return reader


async def test_read_message_round_trips_a_frame():
    msg = message("chat", text="hello")
    assert await read_message(reader_with(encode(msg))) == msg


async def test_oversized_length_is_refused_before_the_body_is_read():
    # No body follows and no EOF: a reader that waited for the body would hang.
    reader = reader_with((MAX_FRAME + 1).to_bytes(4, "big"), eof=False)
    with pytest.raises(ProtocolError, match=f"{MAX_FRAME + 1} bytes is over the limit of {MAX_FRAME}"):
        await asyncio.wait_for(read_message(reader), 1)


async def test_truncated_frame_is_an_incomplete_read():
    data = encode(message("ping"))
    with pytest.raises(asyncio.IncompleteReadError):
        await read_message(reader_with(data[:-1]))


@pytest.mark.parametrize(
    "body, error",
    [
        (b"\xc1", "malformed msgpack"),
        (b"\x92\x01", "malformed msgpack"),
        (msgpack.packb({"v": PROTOCOL_VERSION, "t": "ping"}) + b"\x00", "malformed msgpack"),
        (msgpack.packb([1, 2]), "must hold a msgpack map"),
        (msgpack.packb({1: 2, "v": PROTOCOL_VERSION, "t": "x"}), "malformed msgpack"),
        (b"\x81\xa1t\xa2\xff\xfe", "malformed msgpack"),
        (msgpack.packb({"t": "ping"}), "no protocol version"),
        (msgpack.packb({"v": 1, "t": "ping"}), "protocol version 1 is not supported"),
        (msgpack.packb({"v": True, "t": "ping"}), "protocol version True"),
        (msgpack.packb({"v": PROTOCOL_VERSION}), "no string tag"),
        (msgpack.packb({"v": PROTOCOL_VERSION, "t": "x", "b": b"bin"}), "unsupported msgpack value"),
        (msgpack.packb({"v": PROTOCOL_VERSION, "t": "x", "e": msgpack.ExtType(1, b"")}), "unsupported"),
    ],
)
async def test_malformed_bodies_are_protocol_errors(body, error):
    with pytest.raises(ProtocolError, match=error):
        await read_message(reader_with(frame(body)))


async def test_zero_length_frame_is_refused():
    with pytest.raises(ProtocolError, match="empty frame"):
        await read_message(reader_with(b"\x00\x00\x00\x00"))


@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 5000])
async def test_deep_nesting_is_refused(depth):
    # {"v":2,"t":"x","n":[[[...]]]}: built as bytes, since packing it would recurse.
    body = b"\x83\xa1v\x03\xa1t\xa1x\xa1n" + b"\x91" * depth + b"\x90"
    with pytest.raises(ProtocolError, match="nests"):
        await read_message(reader_with(frame(body)))


async def test_nesting_within_the_limit_is_accepted():
    header = b"\x83\xa1v" + bytes([PROTOCOL_VERSION]) + b"\xa1t\xa1x\xa1n"
    body = header + b"\x91" * (MAX_NESTING - 2) + b"\x90"
    assert (await read_message(reader_with(frame(body))))["t"] == "x"


def test_frame_decoder_reassembles_frames_split_anywhere():
    messages = [message("chat", text="é" * n) for n in range(1, 30)]
    data = b"".join(encode(m) for m in messages)
    decoder = FrameDecoder()
    out = []
    for i in range(0, len(data), 7):
        out += decoder.feed(data[i : i + 7])
    assert out == messages
    assert decoder.pending == 0


def test_frame_decoder_refuses_an_oversized_length_from_the_header_alone():
    decoder = FrameDecoder()
    with pytest.raises(ProtocolError, match="over the limit"):
        decoder.feed(b"\xff\xff\xff\xff")


def test_encode_refuses_a_message_over_the_frame_limit():
    with pytest.raises(ProtocolError, match=f"the frame limit is {MAX_FRAME} bytes"):
        encode(message("chat", text="x" * MAX_FRAME))


# -- client messages ----------------------------------------------------------------------


def test_every_client_message_parses_into_its_record():
    cases = {
        "hello": ({"name": "Ann", "token": "t", "table": "x", "spectate": True}, protocol.Hello),
        "pair": ({"msg": "ab"}, protocol.PairRequest),
        "paired": ({"mac": "cd"}, protocol.Paired),
        "list_tables": ({}, protocol.ListTables),
        "create_table": ({"game": "timebomb", "players": 5, "options": {}, "name": "n", "bots": 2,
                          "start_when_full": True}, protocol.CreateTable),
        "sit": ({"table": "x", "seat": 2}, protocol.Sit),
        "add_bot": ({"table": "x"}, protocol.AddBot),
        "leave": ({}, protocol.Leave),
        "start": ({}, protocol.Start),
        "act": ({"action": {"type": "cut", "target": 1}}, protocol.Act),
        "chat": ({"text": "hi"}, protocol.Chat),
        "claim_done": ({}, protocol.ClaimDone),
        "play_again": ({}, protocol.PlayAgain),
        "hint": ({}, protocol.AskHint),
        "ping": ({}, protocol.Ping),
        "replays": ({"tokens": ["t"]}, protocol.ListReplays),
        "replay": ({"game": "x-1", "eyes": "all", "step": 0}, protocol.ShowReplay),
        "record": ({"game": "x-1", "part": 0}, protocol.FetchRecord),
    }
    assert set(cases) == protocol.CLIENT_TAGS
    for tag, (fields, record) in cases.items():
        assert isinstance(parse_client_message(message(tag, **fields)), record)


def test_optional_fields_take_their_defaults():
    parsed = parse_client_message(message("create_table", game="timebomb", players=5))
    assert parsed == protocol.CreateTable("timebomb", 5, {}, "", 0)
    assert parse_client_message(message("sit", table="x", seat=None)).seat is None


@pytest.mark.parametrize(
    "msg, error",
    [
        (message("shout"), "unknown message type 'shout'"),
        (message("hello"), "needs the field 'name'"),
        (message("hello", name=5), "'name' must be a string"),
        (message("hello", name="   "), "must not be empty"),
        (message("hello", name="A" * 33), "33 characters; the limit is 32"),
        (message("sit", table="x", seat=True), "'seat' must be a whole number"),
        (message("sit", table="x", seat="1"), "'seat' must be a whole number"),
        (message("act", action=[1]), "'action' must be a map"),
        (message("ping", extra=1), "no field 'extra'"),
        (message("hello", name="Ann", token="t" * 200), "token is 200 characters"),
        (message("hello", name="Ann", spectate=1), "'spectate' must be true or false"),
    ],
)
def test_bad_client_messages_say_what_is_wrong(msg, error):
    with pytest.raises(ProtocolError, match=error):
        parse_client_message(msg)


def test_version_constant_is_what_messages_carry():
    assert message("ping") == {"v": PROTOCOL_VERSION, "t": "ping"}


# -- text -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, clean",
    [
        ("hello", "hello"),
        ("\x1b[2J\x1b[31mred\x1b[0m", "red"),
        ("\x1b]0;pwned title\x07after", "after"),
        ("\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", "link"),
        ("bell\x07 and\x00 nul", "bell and nul"),
        ("two\nlines\ttab", "two lines tab"),
        ("\x9b31mc1", "c1"),
        ("rtl\u202eevil", "rtlevil"),
        ("Ünïcödé ✓", "Ünïcödé ✓"),
        ("trailing escape \x1b", "trailing escape"),
    ],
)
def test_clean_text_strips_terminal_control_sequences(raw, clean):
    assert clean_text(raw) == clean


def test_packed_legal_actions_stand_for_the_same_list():
    crews = [{"type": "propose", "name": "", "crew": [a, b]} for a in range(8) for b in range(a)]
    cuts = [{"type": "cut", "target": seat} for seat in range(1, 8)]
    legal = [{"type": "pass"}, *crews, *cuts, {"type": "vote", "yes": True}]
    packed = pack_legal(legal)
    assert packed[1] == {GROUP_KEY: "crew", "type": "propose", "name": "",
                         "crew": [c["crew"] for c in crews]}
    assert packed[2:] == [*cuts, {"type": "vote", "yes": True}]  # a short run stays plain
    assert unpack_legal(packed) == legal
    assert pack_legal([]) == [] and unpack_legal([]) == []
