"""A BPE rank table as one flat byte string that answers `key in ranks` and `ranks.get(key)`
without building a dict.

Building cl100k's 100,256-entry dict (from marshal, the fastest way) costs 25-40 ms, the largest
part of a hook that counts a few files in pure Python (tiergit.core.bpe), which then looks up
only a few thousand keys. This layout is read whole and used as it is: an open-addressing hash
table (crc32 of the key, linear probing, at most 40 % full) of entry numbers, the entries' key
offsets and ranks as native 32-bit arrays, then the keys. A lookup costs about a microsecond
against a dict's 50 ns, which pays from the first call while a text needs under ~30,000 of them.

Layout (native byte order, named in the magic, so a file is never read on the other order):
    magic (8) | entries n (4) | slots m, a power of two (4)
    slots: m x u32, entry number + 1, 0 = empty
    offsets: (n + 1) x u32 into the keys (entry e is keys[offsets[e]:offsets[e + 1]])
    ranks: n x u32
    keys
Pure: bytes in, bytes or answers out; tests/core/test_rankindex.py checks every key and rank.
"""
from __future__ import annotations

import struct
import sys
from array import array
from zlib import crc32

MAGIC = b"TGRI1" + (b"L" if sys.byteorder == "little" else b"B") + b"\0\0"
HEADER = struct.Struct("=8sII")


def build(ranks: dict[bytes, int]) -> bytes:
    """The index of `ranks` (every rank a 32-bit unsigned int)."""
    n = len(ranks)
    size = 1
    while size < n * 5 // 2 + 1:   # at most 40 % full: short probe runs, and always an empty slot
        size *= 2
    mask = size - 1
    slots = array("I", bytes(4 * size))
    offsets = array("I", [0])
    values = array("I")
    keys = []
    at = 0
    for e, (key, rank) in enumerate(ranks.items()):
        i = crc32(key) & mask
        while slots[i]:
            i = (i + 1) & mask
        slots[i] = e + 1
        at += len(key)
        offsets.append(at)
        values.append(rank)
        keys.append(key)
    for part in (slots, offsets, values):
        assert part.itemsize == 4
    return HEADER.pack(MAGIC, n, size) + slots.tobytes() + offsets.tobytes() + values.tobytes() + b"".join(keys)


class RankIndex:
    """`build`'s output, read back: the mapping interface tiergit.core.bpe uses (`in`, `get`)."""

    __slots__ = ("_slots", "_offsets", "_ranks", "_keys", "_mask", "_n")

    def __init__(self, payload: bytes) -> None:
        if len(payload) < HEADER.size:
            raise ValueError("rank index: too short")
        magic, n, size = HEADER.unpack_from(payload)
        if magic != MAGIC or size & (size - 1) or size <= n:
            raise ValueError("rank index: not one of this machine's")
        view = memoryview(payload)
        a = HEADER.size
        b = a + 4 * size
        c = b + 4 * (n + 1)
        d = c + 4 * n
        if len(payload) < d:
            raise ValueError("rank index: truncated")
        self._slots = view[a:b].cast("I")
        self._offsets = view[b:c].cast("I")
        self._ranks = view[c:d].cast("I")
        self._keys = payload[d:]
        if self._offsets[n] != len(self._keys):
            raise ValueError("rank index: its keys do not fill it")
        self._mask = size - 1
        self._n = n

    def __len__(self) -> int:
        return self._n

    def get(self, key: bytes, default=None):
        slots, offsets, keys, mask = self._slots, self._offsets, self._keys, self._mask
        i = crc32(key) & mask
        size = len(key)
        while True:
            e = slots[i]
            if not e:
                return default
            start, end = offsets[e - 1], offsets[e]
            if end - start == size and keys[start:end] == key:
                return self._ranks[e - 1]
            i = (i + 1) & mask

    def __contains__(self, key: bytes) -> bool:
        return self.get(key) is not None
