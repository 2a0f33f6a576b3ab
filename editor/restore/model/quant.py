"""Weights stored in int8: each large matrix as int8 with one float32 scale per row (symmetric,
round to nearest), everything else in float16. Used for the encoder family's shipped weights
(22 M encoder parameters: 23 MB instead of 45 MB in float16) and read back as float32."""

from __future__ import annotations

import torch

INT8, SCALE = ":int8", ":scale"
MIN_ELEMENTS = 4096  # smaller tensors (biases, norms, the CRF) stay float16


def quantize_state(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    out: dict[str, torch.Tensor] = {}
    for k, v in state.items():
        v = v.detach().cpu()
        if v.is_floating_point() and v.dim() == 2 and v.numel() >= MIN_ELEMENTS:
            v = v.float()
            # shape: (rows,): the largest magnitude of each row maps to 127
            scale = v.abs().amax(dim=1).clamp(min=1e-12) / 127.0
            out[k + INT8] = torch.round(v / scale[:, None]).clamp(-127, 127).to(torch.int8).contiguous()
            out[k + SCALE] = scale.contiguous()
        elif v.is_floating_point():
            out[k] = v.to(torch.float16).contiguous()
        else:
            out[k] = v.contiguous()
    return out


def dequantize_state(stored: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """The float32 state dict of a `quantize_state` dict; ValueError where it is not one."""
    out: dict[str, torch.Tensor] = {}
    for k, v in stored.items():
        if not isinstance(k, str) or not isinstance(v, torch.Tensor):
            raise ValueError("not a dict of named tensors")
        if k.endswith(SCALE):
            if k[: -len(SCALE)] + INT8 not in stored:
                raise ValueError(f"{k} has no int8 matrix")
            continue
        if k.endswith(INT8):
            name = k[: -len(INT8)]
            scale = stored.get(name + SCALE)
            if v.dtype != torch.int8 or v.dim() != 2 or scale is None or scale.shape != (v.shape[0],):
                raise ValueError(f"{name}: an int8 matrix needs one scale per row")
            out[name] = v.float() * scale.float()[:, None]
        else:
            out[k] = v.float() if v.is_floating_point() else v
    return out
