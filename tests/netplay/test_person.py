"""Who a person is (PROTOCOL.md, "Who a person is"): an app proves its person's key in its
`hello`, bound to the host's key; the host keeps the id with the seat, into each game's record;
a proof made for another host, or none matching, is refused. Over a real host on 127.0.0.1."""

from __future__ import annotations

import asyncio

import pytest
from support.hosts import connect

from netplay.client import HostRefused
from netplay.game_record import table_games
from netplay.person import PersonKey, check_proof, person_id
from netplay.transport import HostKey

from .conftest import TIMEOUT, play


async def test_the_host_keeps_each_persons_id_with_their_seat_into_the_record(host):
    ann_key, bob_key = PersonKey(), PersonKey()
    table_id = host.create_table("timebomb", 4, {"first_player": 0}, bots=2,
                                 start_when_full=True)
    ann = await connect(host, "Ann", table=table_id, person=ann_key)
    bob = await connect(host, "Ann", table=table_id, person=bob_key)  # another Ann
    table = host.tables[table_id]
    assert [s.person for s in table.seats] == [ann_key.id, bob_key.id, None, None]
    assert [s.name for s in table.seats][:2] == ["Ann", "Ann (2)"]
    # Her token brings her back to the seat she took, named as she was.
    token = ann.token
    await ann.close()
    ann = await connect(host, "Ann", token=token, person=ann_key)
    assert table.seats[0].person == ann_key.id
    await asyncio.wait_for(asyncio.gather(play(ann, 1), play(bob, 2)), TIMEOUT)
    await host.store.flush()
    [game] = table_games(host.store.records(table_id))
    assert [p.person for p in game.seats] == [ann_key.id, bob_key.id, None, None]
    seat_entries = [e for e in game.entries() if e["e"] == "seat"]
    assert [e["person"] for e in seat_entries] == [ann_key.id, bob_key.id, None, None]
    for conn in (ann, bob):
        await conn.close()


async def test_a_proof_for_another_host_or_none_matching_is_refused(host, tmp_path):
    key = PersonKey()
    other = HostKey(tmp_path / "other.pem")
    # A proof is bound to the host's key: one made for another host does not pass here...
    assert check_proof(key.public_hex, key.proof(host.fingerprint), host.fingerprint) == key.id
    forged = key.proof(other.fingerprint)
    table_id = host.create_table("timebomb", 4, bots=2)
    for person, proof in ((key.public_hex, forged), (key.public_hex, None),
                          (None, key.proof(host.fingerprint)), ("ab" * 32, "cd" * 64)):
        with pytest.raises(HostRefused, match="proof"):
            await connect(host, "Eve", table=table_id, person=Forger(person, proof))
    assert all(s.kind != "human" for s in host.tables[table_id].seats)


async def test_a_persons_key_is_kept_owner_only_and_stays_the_same(tmp_path):
    path = tmp_path / "seats" / "person.key"
    first = PersonKey(path)
    assert path.stat().st_mode & 0o777 == 0o600
    assert PersonKey(path).id == first.id == person_id(first.public_hex)
    assert len(first.id) == 32
    path.write_bytes(b"damaged")
    fresh = PersonKey(path)
    assert fresh.id != first.id and (tmp_path / "seats" / "person.key.damaged").exists()


class Forger(PersonKey):
    """An app saying `person` and `proof` as given, whatever the host: each may be None."""

    def __init__(self, person: str | None, proof: str | None):
        super().__init__()
        self.forged = (person, proof)

    def hello_fields(self, fingerprint: str) -> dict:
        person, proof = self.forged
        return {"person": person, "proof": proof}
