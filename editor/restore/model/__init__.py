"""The model: what a restoration model is and how one is stored.

The networks (`bilstm_crf.BiLSTMCRF`, the word model; `encoder.EncoderBiLSTMCRF`, the same head on a
pretrained sub-word encoder, cut by `pieces`), the CRF under both (`crf`), their label sets
(`labels`), the word and character vocabularies (`vocab`), int8 storage of large weights (`quant`),
and a model directory on disk, written and checked (`package`). Nothing here runs a pass over a
text (that is `editor.restore.passes`) or learns from a review (`editor.restore.learning`).

Names load on first use, so importing this package loads no torch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.core.lazy import lazy_exports

_EXPORTS = {
    "BiLSTMCRF": "bilstm_crf", "ModelConfig": "bilstm_crf",
    "EncoderBiLSTMCRF": "encoder", "EncoderConfig": "encoder",
    "Vocab": "vocab",
    "ModelError": "package", "default_model_dir": "package", "export_model": "package",
    "load_model_dir": "package", "resource_model_dir": "package", "shipped_models": "package",
}

__all__ = sorted(_EXPORTS)

__getattr__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from editor.restore.model.bilstm_crf import BiLSTMCRF, ModelConfig
    from editor.restore.model.encoder import EncoderBiLSTMCRF, EncoderConfig
    from editor.restore.model.package import (ModelError, default_model_dir, export_model, load_model_dir,
                                              resource_model_dir, shipped_models)
    from editor.restore.model.vocab import Vocab
