"""What each process of the two-process gloo test runs (module level, so that spawn finds it).

Every scenario gives each rank its own list of batches (any number, possibly none); the rank
feeds them to a fresh metric and computes; the result is written to ``out/rank{r}.pkl``.
"""

from __future__ import annotations

import pickle
from pathlib import Path


def run(rank: int, world: int, init_file: str, out: str, scenarios: list) -> None:
    import torch
    import torch.distributed as dist

    from prcurve.torch import PRCurveMetric

    dist.init_process_group("gloo", init_method=f"file://{init_file}", rank=rank, world_size=world)
    try:
        results = {}
        for name, options, per_rank in scenarios:
            metric = PRCurveMetric(**options)
            for preds, target, weight in per_rank[rank]:
                w = None if weight is None else torch.from_numpy(weight)
                metric.update(torch.from_numpy(preds), torch.from_numpy(target), w)
            local = (metric.accumulator.n_pos, metric.accumulator.n_neg)
            results[name] = (metric.compute(), local)
            # the local state is unchanged by the sync: computing again gives the same
            again = metric.compute()
            assert again.average_precision == results[name][0].average_precision
            assert (metric.accumulator.n_pos, metric.accumulator.n_neg) == local
        Path(out, f"rank{rank}.pkl").write_bytes(pickle.dumps(results))
    finally:
        dist.destroy_process_group()
