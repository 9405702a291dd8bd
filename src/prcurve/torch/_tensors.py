"""One batch of a training loop, from torch tensors to the arrays the accumulator counts.

A metric is fed whatever the model produced: tensors of any shape (a segmentation batch is
``(N, H, W)``), on any device, in float16, bfloat16, float32 or float64, with targets as bool,
integer or 0/1 float tensors.  :func:`batch_arrays` flattens them (as torchmetrics does),
copies them to host memory and returns NumPy arrays with every value unchanged:

* bfloat16 (which NumPy lacks) and float16 scores become float32 -- both convert exactly, so
  the distinct scores and their order are the tensor's own; float32 and float64 are kept.
* Scores are **not** passed through a sigmoid (torchmetrics applies one when a score lies
  outside [0, 1]): the sigmoid is monotone, so it changes no ranking, but in float32 it
  saturates at 1.0 above about 17 and so merges distinct logits into one tie.  Thresholds stay
  in the model's own units (logits or probabilities).

NumPy arrays and lists are accepted too (converted by :func:`numpy.asarray`).  Validation of
the values (finite scores, binary labels, non-negative weights) is the accumulator's, so the
messages are the library's own.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["batch_arrays"]


def _shape(value: Any) -> tuple[int, ...]:
    return tuple(int(d) for d in (value.shape if hasattr(value, "shape") else np.shape(value)))


def _to_numpy(name: str, value: Any) -> np.ndarray:
    """A host copy of a tensor (or an array-like) with its values unchanged, flattened."""
    torch = _torch_if_tensor(value)
    if torch is None:
        return np.asarray(value).reshape(-1)
    tensor = value.detach()
    if tensor.is_complex():
        raise TypeError(f"{name}: expected a real tensor, got dtype {tensor.dtype}")
    if tensor.dtype in (torch.float16, torch.bfloat16):
        tensor = tensor.to(torch.float32)  # exact: NumPy has no bfloat16
    return tensor.cpu().reshape(-1).numpy()


def _torch_if_tensor(value: Any) -> Any:
    """The torch module when ``value`` is a torch tensor (torch is imported only then)."""
    if type(value).__module__.split(".")[0] != "torch":
        return None
    import torch

    return torch if isinstance(value, torch.Tensor) else None


def batch_arrays(
    preds: Any, target: Any, weight: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(target, preds, weight)`` of one batch as flat NumPy arrays.

    ``preds`` and ``target`` (and ``weight`` when given) must have the same shape, as in
    torchmetrics; every element is one instance.
    """
    shape = _shape(preds)
    if _shape(target) != shape:
        raise ValueError(f"target: expected the shape of preds {shape}, got {_shape(target)}")
    if weight is not None and _shape(weight) != shape:
        raise ValueError(f"weight: expected the shape of preds {shape}, got {_shape(weight)}")
    scores = _to_numpy("preds", preds)
    labels = _to_numpy("target", target)
    weights = None if weight is None else _to_numpy("weight", weight)
    return labels, scores, weights
