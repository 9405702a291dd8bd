"""State sync across processes: every process's accumulator, merged in rank order.

Averaging per-process AP is wrong (the mean of areas is not the area of the pooled data:
Lightning #3023), and gathering every score -- torchmetrics' exact mode -- moves and holds all
the data on every process.  What a process holds here is its accumulator (the distinct scores
seen with their positive and negative weight); those are gathered with
:func:`torch.distributed.all_gather_object`, which pickles each one and handles states of any
size (a process that saw ten times more data, or none, is fine), and merged in rank order.
Merging is exact and order-free for :class:`prcurve.PRAccumulator`; for an accumulator whose
merge depends on order (a bounded one), the rank order makes every process get the same state.

Like every collective, :func:`gather_accumulators` must be called by every process of the group
(torchmetrics' ``compute`` has the same rule).  With the NCCL backend, ``all_gather_object``
moves the pickles through the current CUDA device: call ``torch.cuda.set_device`` first, as
PyTorch requires; gloo (CPU) needs nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["distributed_world_size", "gather_accumulators", "merged"]


def distributed_world_size(process_group: Any = None) -> int:
    """Number of processes to sync with: 1 unless torch.distributed is initialised."""
    try:
        import torch.distributed as dist
    except ImportError:  # no torch: fed NumPy arrays, nothing to sync with
        return 1

    if not (dist.is_available() and dist.is_initialized()):
        return 1
    return int(dist.get_world_size(process_group))


def gather_accumulators(local: Any, *, process_group: Any = None) -> list[Any]:
    """Every process's accumulator, in rank order (a collective: every process must call it)."""
    world = distributed_world_size(process_group)
    if world == 1:
        return [local]
    import torch.distributed as dist

    gathered: list[Any] = [None] * world
    dist.all_gather_object(gathered, local, group=process_group)
    return gathered


def merged(factory: Callable[[], Any], accumulators: list[Any]) -> Any:
    """A new accumulator holding all of ``accumulators`` (merged in the order given)."""
    out = factory()
    for acc in accumulators:
        out.merge(acc)
    return out
