"""CAM++, the speaker encoder of 3D-Speaker (Alibaba DAMO Academy, Apache-2.0), as a torch module.

Wang et al., "CAM++: A Fast and Efficient Network for Speaker Verification Using Context-Aware
Masking", Interspeech 2023 (arXiv:2303.00332). The network is written here after 3D-Speaker's
``speakerlab/models/campplus`` (``DTDNN.py``, ``layers.py``), with its parameter names, so that the
released state dict loads as it is: the packages that carry that code pull in torchaudio (which
pins one torch version) and modelscope, or import a whole diarisation pipeline on import. Stet
uses it for inference only (no dropout, no checkpointing, no training paths).

Input: 80 log mel filterbank values per 10 ms (Kaldi's, mean-normalised over the window),
shape (B, T, 80); output: a 192-value voice print, shape (B, 192).
"""

from __future__ import annotations

from collections import OrderedDict

import torch
import torch.nn.functional as F
from torch import nn

FEATURES = 80
EMBEDDING = 192


def _bn_relu(channels: int) -> nn.Sequential:
    """3D-Speaker's ``batchnorm-relu``: the names ``batchnorm`` and ``relu`` are in the state dict."""
    return nn.Sequential(OrderedDict(batchnorm=nn.BatchNorm1d(channels), relu=nn.ReLU()))


class _ResBlock(nn.Module):
    """A 2-D residual block of the front end; ``stride`` along frequency only."""

    def __init__(self, in_planes: int, planes: int, stride: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(in_planes, planes, 3, stride=(stride, 1), padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != planes:
            self.shortcut = nn.Sequential(nn.Conv2d(in_planes, planes, 1, stride=(stride, 1), bias=False),
                                          nn.BatchNorm2d(planes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))


class _FCM(nn.Module):
    """The front end: 2-D convolutions over (frequency, time), then frequency folded into channels."""

    def __init__(self, channels: int = 32, features: int = FEATURES) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, channels, 3, stride=1, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.layer1 = nn.Sequential(_ResBlock(channels, channels, 2), _ResBlock(channels, channels, 1))
        self.layer2 = nn.Sequential(_ResBlock(channels, channels, 2), _ResBlock(channels, channels, 1))
        self.conv2 = nn.Conv2d(channels, channels, 3, stride=(2, 1), padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)
        self.out_channels = channels * (features // 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, F_, T = x.shape
        out = F.relu(self.bn1(self.conv1(x.unsqueeze(1))))
        out = self.layer2(self.layer1(out))
        # shape: (B, 32, F/8, T)
        out = F.relu(self.bn2(self.conv2(out)))
        return out.reshape(B, -1, out.shape[-1])


class _TDNN(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel: int, stride: int) -> None:
        super().__init__()
        self.linear = nn.Conv1d(in_channels, out_channels, kernel, stride=stride, padding=(kernel - 1) // 2,
                                bias=False)
        self.nonlinear = _bn_relu(out_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.nonlinear(self.linear(x))
        return out


class _CAMLayer(nn.Module):
    """A time-delay layer whose output is masked by its context: the whole window's mean plus the
    mean of the segment of 100 frames (1 s) each frame lies in."""

    def __init__(self, bn_channels: int, out_channels: int, kernel: int, dilation: int) -> None:
        super().__init__()
        self.linear_local = nn.Conv1d(bn_channels, out_channels, kernel, padding=(kernel - 1) // 2 * dilation,
                                      dilation=dilation, bias=False)
        self.linear1 = nn.Conv1d(bn_channels, bn_channels // 2, 1)
        self.relu = nn.ReLU()
        self.linear2 = nn.Conv1d(bn_channels // 2, out_channels, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, C, T = x.shape
        y: torch.Tensor = self.linear_local(x)
        # shape: (B, C, ceil(T / 100)), each segment's mean, then repeated over its frames
        seg: torch.Tensor = F.avg_pool1d(x, kernel_size=100, stride=100, ceil_mode=True)
        seg = seg.unsqueeze(-1).expand(B, C, seg.shape[-1], 100).reshape(B, C, -1)[..., :T]
        context = x.mean(-1, keepdim=True) + seg
        mask: torch.Tensor = torch.sigmoid(self.linear2(self.relu(self.linear1(context))))
        return y * mask


class _DenseTDNNLayer(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, bn_channels: int, kernel: int,
                 dilation: int) -> None:
        super().__init__()
        self.nonlinear1 = _bn_relu(in_channels)
        self.linear1 = nn.Conv1d(in_channels, bn_channels, 1, bias=False)
        self.nonlinear2 = _bn_relu(bn_channels)
        self.cam_layer = _CAMLayer(bn_channels, out_channels, kernel, dilation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.cam_layer(self.nonlinear2(self.linear1(self.nonlinear1(x))))
        return out


class _DenseBlock(nn.ModuleDict):
    """Densely connected layers: each adds ``growth`` channels to what it was given."""

    def __init__(self, layers: int, in_channels: int, growth: int, bn_channels: int, kernel: int,
                 dilation: int) -> None:
        super().__init__({f"tdnnd{i + 1}": _DenseTDNNLayer(in_channels + i * growth, growth, bn_channels,
                                                           kernel, dilation) for i in range(layers)})

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.values():
            x = torch.cat([x, layer(x)], dim=1)
        return x


class _Transit(nn.Module):
    def __init__(self, in_channels: int, out_channels: int) -> None:
        super().__init__()
        self.nonlinear = _bn_relu(in_channels)
        self.linear = nn.Conv1d(in_channels, out_channels, 1, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.linear(self.nonlinear(x))
        return out


class _StatsPool(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # shape: (B, 2C), the mean and standard deviation over time
        return torch.cat([x.mean(dim=-1), x.std(dim=-1, unbiased=True)], dim=-1)


class _Dense(nn.Module):
    """The embedding layer: a linear map and a batch norm without scale or shift (no ReLU)."""

    def __init__(self, in_channels: int, out_channels: int) -> None:
        super().__init__()
        self.linear = nn.Conv1d(in_channels, out_channels, 1, bias=False)
        self.nonlinear = nn.Sequential(OrderedDict(batchnorm=nn.BatchNorm1d(out_channels, affine=False)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.nonlinear(self.linear(x.unsqueeze(-1)).squeeze(-1))
        return out


class CAMPPlus(nn.Module):
    """CAM++ with 3D-Speaker's released sizes: 80 features in, ``embedding`` values out."""

    def __init__(self, features: int = FEATURES, embedding: int = EMBEDDING, growth: int = 32,
                 bn_size: int = 4, init_channels: int = 128) -> None:
        super().__init__()
        self.head = _FCM(features=features)
        xvector: OrderedDict[str, nn.Module] = OrderedDict({"tdnn": _TDNN(self.head.out_channels, init_channels, 5, stride=2)})
        channels = init_channels
        for i, (layers, kernel, dilation) in enumerate([(12, 3, 1), (24, 3, 2), (16, 3, 2)]):
            xvector[f"block{i + 1}"] = _DenseBlock(layers, channels, growth, bn_size * growth, kernel, dilation)
            channels += layers * growth
            xvector[f"transit{i + 1}"] = _Transit(channels, channels // 2)
            channels //= 2
        xvector["out_nonlinear"] = _bn_relu(channels)
        xvector["stats"] = _StatsPool()
        xvector["dense"] = _Dense(channels * 2, embedding)
        self.xvector = nn.Sequential(xvector)

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        """(B, T, 80) features -> (B, 192) voice prints (not unit length)."""
        B, T, F_ = feats.shape
        out: torch.Tensor = self.xvector(self.head(feats.permute(0, 2, 1)))
        return out
