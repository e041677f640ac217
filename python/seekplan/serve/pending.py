"""Files waiting in the requester, kept by column until something touches them.

At WLCG's load a million files wait in the requester while a few thousand
are in the tape system. As :class:`~seekplan.serve.jobs.Job` objects
they took about 600 bytes each (issue 35: 1.4 GB of RSS at 1,000,000
queued); here a file that nothing has touched since it arrived takes 16
bytes: its catalog row, its request file id and its request, in pages of
:data:`PAGE` arrival numbers, a page freed when its last file leaves. The
scheduler turns an entry into a job when the requester passes the file on,
or when a cancel, a release or a second request for the same path needs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: Arrival numbers per page: 65,536 files, 1 MiB of columns.
PAGE = 1 << 16


@dataclass(slots=True)
class _Page:
    """One page's columns, indexed by arrival number modulo :data:`PAGE`;
    ``row`` is -1 where no file waits."""

    row: np.ndarray
    file_id: np.ndarray
    request: np.ndarray
    waiting: int = 0


class Pending:
    """The untouched files, by arrival number (the requester's key)."""

    def __init__(self) -> None:
        self._pages: dict[int, _Page] = {}
        #: Request ids by index, with the number of files waiting for each;
        #: indices of requests no file waits for any more are reused.
        self._requests: list[str] = []
        self._request_index: dict[str, int] = {}
        self._refs: list[int] = []
        self._free: list[int] = []
        #: Files waiting.
        self.count = 0

    def __len__(self) -> int:
        return self.count

    def _request(self, rid: str, n: int) -> int:
        k = self._request_index.get(rid)
        if k is None:
            if self._free:
                k = self._free.pop()
                self._requests[k] = rid
                self._refs[k] = 0
            else:
                k = len(self._requests)
                self._requests.append(rid)
                self._refs.append(0)
            self._request_index[rid] = k
        self._refs[k] += n
        return k

    def _unref(self, k: int) -> str:
        rid = self._requests[k]
        self._refs[k] -= 1
        if self._refs[k] == 0:
            del self._request_index[rid]
            self._free.append(k)
        return rid

    def put(
        self, first_seq: int, rows: np.ndarray, file_ids: np.ndarray, rids: str | Sequence[str]
    ) -> None:
        """Files ``rows`` (catalog rows) arrived with the consecutive arrival
        numbers from ``first_seq``; ``file_ids`` are their request file ids
        and ``rids`` their requests (one for all, or one each)."""
        n = len(rows)
        if n == 0:
            return
        k: int | np.ndarray
        if isinstance(rids, str):
            k = self._request(rids, n)
        else:
            names, of_row = np.unique(np.asarray(rids, dtype=object), return_inverse=True)
            counts = np.bincount(of_row, minlength=len(names))
            slots = [self._request(str(r), int(c)) for r, c in zip(names, counts, strict=True)]
            k = np.asarray(slots, dtype=np.int32)[of_row]
        done = 0
        while done < n:
            seq = first_seq + done
            page_no, at = divmod(seq, PAGE)
            page = self._pages.get(page_no)
            if page is None:
                page = _Page(
                    np.full(PAGE, -1, dtype=np.int32),
                    np.zeros(PAGE, dtype=np.int64),
                    np.zeros(PAGE, dtype=np.int32),
                )
                self._pages[page_no] = page
            step = min(n - done, PAGE - at)
            page.row[at : at + step] = rows[done : done + step]
            page.file_id[at : at + step] = file_ids[done : done + step]
            page.request[at : at + step] = k if isinstance(k, int) else k[done : done + step]
            page.waiting += step
            done += step
        self.count += n

    def holds(self, seq: int, file_id: int) -> bool:
        """Whether request file ``file_id`` waits under arrival number ``seq``."""
        page = self._pages.get(seq // PAGE)
        at = seq % PAGE
        return page is not None and page.row[at] >= 0 and int(page.file_id[at]) == file_id

    def pop(self, seq: int) -> tuple[int, int, str] | None:
        """Removes the file of arrival number ``seq``: (catalog row, file id,
        request id), or None if none waits under it."""
        page_no, at = divmod(seq, PAGE)
        page = self._pages.get(page_no)
        if page is None or page.row[at] < 0:
            return None
        row = int(page.row[at])
        page.row[at] = -1
        page.waiting -= 1
        if page.waiting == 0:
            del self._pages[page_no]
        self.count -= 1
        return row, int(page.file_id[at]), self._unref(int(page.request[at]))

    def nbytes(self) -> int:
        """Bytes the pages' columns take."""
        return sum(p.row.nbytes + p.file_id.nbytes + p.request.nbytes for p in self._pages.values())
