"""The Raft log: the persisted part in a :class:`Storage`, the rest in memory (etcd-io/raft's
``raftLog`` with its ``unstable`` part).

The core holds in memory only the entries it has not handed over by a ``Ready`` yet and the
term of every entry as runs (the first index of each term: a few integers per election); it
reads an entry's data from the storage when it must send it to a follower that lacks it or
hand it over to be applied.  A node's memory so stays the same however long its log grows
(docs/architecture.md, "Memory").  :class:`MemoryStorage` is the storage of the tests; a
node's is its store (:class:`net.agreement.persist.RaftStore`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from itertools import chain, pairwise
from typing import Protocol

import msgpack

from tarock.net.agreement.messages import Entry, Ready


def entry_size(entry: Entry) -> int:
    """The bytes ``entry``'s data takes in an append (what ``max_append_bytes`` counts)."""
    return len(msgpack.packb(entry.data, use_bin_type=True))


def fit(entries: Iterable[Entry], max_bytes: int | None) -> list[Entry]:
    """The first of ``entries`` that fit in ``max_bytes`` by :func:`entry_size` (None: all; at
    least one)."""
    out: list[Entry] = []
    size = 0
    for e in entries:
        if max_bytes is not None:
            size += entry_size(e)
            if out and size > max_bytes:
                break
        out.append(e)
    return out


class Storage(Protocol):
    """The persisted log, as the core reads it (etcd-io/raft's ``Storage``, without snapshots).

    It holds what every :class:`Ready` handed over (``truncate_from`` and ``entries``) once
    the driver persisted it; the core reads from it only entries it handed over before.
    """

    def last_index(self) -> int:
        """The index of the last entry stored (0: none)."""
        ...

    def term_runs(self) -> list[tuple[int, int]]:
        """``(first index, term)`` of every run of entries of one term, in log order."""
        ...

    def entries(self, lo: int, hi: int, max_bytes: int | None = None) -> list[Entry]:
        """The entries ``lo`` up to ``hi`` (excluded), all stored; with ``max_bytes`` only as
        many as fit in it by :func:`entry_size` (at least one when ``lo < hi``)."""
        ...


class MemoryStorage:
    """A :class:`Storage` in memory: ``log`` is what was persisted (the tests' disk, which
    :meth:`save` or the test itself writes)."""

    def __init__(self, log: list[Entry] | None = None) -> None:
        self.log: list[Entry] = log if log is not None else []

    def last_index(self) -> int:
        return len(self.log)

    def term_runs(self) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        for e in self.log:
            if not out or out[-1][1] != e.term:
                out.append((e.index, e.term))
        return out

    def entries(self, lo: int, hi: int, max_bytes: int | None = None) -> list[Entry]:
        if not 1 <= lo <= hi <= len(self.log) + 1:
            raise IndexError((lo, hi))
        return fit(self.log[lo - 1:hi - 1], max_bytes)

    def save(self, ready: Ready) -> None:
        """What ``ready`` asks to persist."""
        if ready.truncate_from is not None:
            del self.log[ready.truncate_from - 1:]
        self.log.extend(ready.entries)


class RaftLog:
    """One member's log: the entries in ``storage`` and, after them, the unstable ones that
    no :class:`Ready` handed over yet; the term of every index as runs; how far it is
    committed, and how far handed over to be applied."""

    def __init__(self, storage: Storage, committed: int = 0, applied: int = 0) -> None:
        self.storage = storage
        self.last = storage.last_index()
        runs = storage.term_runs()
        if (self.last < 0 or (runs == []) != (self.last == 0) or (runs and runs[0][0] != 1)
                or any(b[0] <= a[0] for a, b in pairwise(runs))
                or (runs and runs[-1][0] > self.last)):
            raise ValueError("the stored log's indexes must run 1, 2, 3, ...")
        self._run_starts = [i for i, _ in runs]
        self._run_terms = [t for _, t in runs]
        self._tail: list[Entry] = []
        """The entries from ``_first_unstable`` on: not handed over yet."""
        self._first_unstable = self.last + 1
        self._stored_last = self.last
        """The last index the storage holds (or will, once the last handover is persisted)."""
        if not 0 <= applied <= self.last or not 0 <= committed <= self.last:
            raise ValueError("commit and applied must lie within the log")
        self.committed = max(committed, applied)
        self.applied = applied

    @property
    def last_term(self) -> int:
        """The term of the last entry (0: empty log)."""
        return self._run_terms[-1] if self._run_terms else 0

    def term_at(self, index: int) -> int | None:
        """The term of the entry at ``index`` (0 at index 0; None outside the log)."""
        if index == 0:
            return 0
        if not 0 < index <= self.last:
            return None
        return self._run_terms[bisect_right(self._run_starts, index) - 1]

    def entries(self, lo: int, hi: int, max_bytes: int | None = None) -> list[Entry]:
        """The entries ``lo`` up to ``hi`` (excluded), from the storage and from memory; with
        ``max_bytes`` only as many as fit (at least one when ``lo < hi``)."""
        if not 1 <= lo <= hi <= self.last + 1:
            raise IndexError((lo, hi))
        split = self._first_unstable
        out: list[Entry] = []
        if lo < split:
            stop = min(hi, split)
            out = self.storage.entries(lo, stop, max_bytes)
            if hi <= split or len(out) < stop - lo:
                return out
        tail = self._tail[max(lo, split) - split:hi - split]
        return out + tail if max_bytes is None else fit(chain(out, tail), max_bytes)

    def conflict_hint(self, index: int, term: int) -> int:
        """Where a leader whose entry ``index`` has ``term`` (which this log lacks) may resume:
        the last index before it whose term is not above ``term`` (etcd's hint)."""
        hint = index - 1
        while hint > 0 and (self.term_at(hint) or 0) > term:
            hint = self._run_starts[bisect_right(self._run_starts, hint) - 1] - 1
        return hint

    def append(self, e: Entry) -> None:
        self._tail.append(e)
        self.last = e.index
        if not self._run_terms or self._run_terms[-1] != e.term:
            self._run_starts.append(e.index)
            self._run_terms.append(e.term)

    def append_after(self, prev: int, entries: Sequence[Entry], commit: int) -> bool:
        """(Follower) a leader's ``entries`` after index ``prev`` (whose term matches): those this
        log holds are skipped, from the first whose term differs on this log is replaced.  False,
        changing nothing, when that would drop an entry up to ``commit``."""
        for e in entries:
            have = self.term_at(e.index)
            if have == e.term:
                continue
            if have is not None:
                if e.index <= commit:
                    return False
                self.truncate(e.index)
            for new in entries[e.index - prev - 1:]:
                self.append(new)
            break
        return True

    def truncate(self, index: int) -> None:
        """Drop the entries from ``index`` on (none of them committed)."""
        if index >= self._first_unstable:
            del self._tail[index - self._first_unstable:]
        else:
            self._tail = []
            self._first_unstable = index
        self.last = index - 1
        k = bisect_right(self._run_starts, index - 1)
        del self._run_starts[k:]
        del self._run_terms[k:]

    def take_committed(self, max_bytes: int) -> tuple[Entry, ...]:
        """The committed entries not taken yet, as many as fit in ``max_bytes`` (at least one)."""
        out = tuple(self.entries(self.applied + 1, self.committed + 1, max_bytes))
        self.applied += len(out)
        return out

    def hand_over(self) -> tuple[int | None, tuple[Entry, ...]]:
        """What the storage must do now (drop its entries from an index on, append entries):
        from now on the storage holds the whole log."""
        truncate = self._first_unstable if self._first_unstable <= self._stored_last else None
        entries = tuple(self._tail)
        self._stored_last = self.last
        self._first_unstable = self.last + 1
        self._tail = []
        return truncate, entries
