"""Work spread over a Dask cluster: ``local`` (a cluster of worker processes on this machine) or
the address of a running scheduler (``tcp://host:8786``).

Dask rather than Ray: it installs from PyPI alone (no native runtime of its own), a
``LocalCluster`` of two worker processes starts in about a second on a 2-core machine, and its
``Client.map`` / ``as_completed`` are the same shape as the process pool used without
``--cluster``. Dask is an optional extra (``pip install 'halfsuit[cluster]'``) and is imported
only here, when a cluster is asked for. Each task is a pure function of its input (a game's
seed, a record), so results are the same on one machine or many.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from .errors import UsageError

T = TypeVar("T")
R = TypeVar("R")


@contextmanager
def cluster_client(address: str, workers: int) -> Iterator[Any]:
    """A Dask client: a local cluster of ``workers`` processes for ``local``, else the scheduler at ``address``."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise UsageError("--cluster needs Dask: pip install 'halfsuit[cluster]'") from None
    if address == "local":
        with (
            LocalCluster(
                n_workers=max(1, workers), threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster,  # type: ignore[no-untyped-call]
            Client(cluster) as client,  # type: ignore[no-untyped-call]
        ):
            yield client
    else:
        with Client(address) as client:  # type: ignore[no-untyped-call]
            yield client


def cluster_map(
    client: Any, fn: Callable[[T], R], items: Sequence[T], each: Callable[[R], None] | None = None
) -> list[R]:
    """``fn(item)`` for every item on the cluster, in the items' order; ``each`` sees each result as it comes."""
    from distributed import as_completed

    futures = client.map(fn, list(items), pure=False)
    where = {f.key: k for k, f in enumerate(futures)}
    results: dict[int, R] = {}
    try:
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            results[where[future.key]] = future.result()
            if each is not None:
                each(results[where[future.key]])
    except BaseException:
        client.cancel(futures)
        raise
    return [results[k] for k in range(len(items))]
