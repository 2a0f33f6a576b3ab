"""`stet train` options: source weights reach the training configuration, and bad ones are refused clearly."""

import argparse

import pytest

from editor.core.errors import UserError
from editor.restore.lab.train_config import add_train_arguments, train_config_from_args
from editor.restore.lab.data import DEFAULT_SOURCES


def _parse(*argv):
    p = argparse.ArgumentParser(exit_on_error=False)
    add_train_arguments(p)
    return p.parse_args(list(argv))


def test_named_sources_change_their_weight_and_the_rest_keep_the_default():
    cfg = train_config_from_args(_parse("--sources", "ted_saranyan=0.75, ljspeech_text=0"))
    assert cfg.sources["ted_saranyan"] == 0.75
    assert cfg.sources["ljspeech_text"] == 0.0
    assert cfg.sources["scotus_oyez_2010plus"] == DEFAULT_SOURCES["scotus_oyez_2010plus"]
    assert list(cfg.sources) == list(DEFAULT_SOURCES)  # every source still counts for the vocabulary


def test_without_sources_the_defaults_are_used():
    assert train_config_from_args(_parse()).sources == DEFAULT_SOURCES


@pytest.mark.parametrize("bad", ["ted_saranyan", "ted_saranyan=x", "ted_saranyan=-1", "=0.5"])
def test_a_malformed_weight_is_refused_by_the_parser(bad):
    with pytest.raises(argparse.ArgumentError, match="NAME=WEIGHT"):
        _parse("--sources", bad)


def test_an_unknown_source_names_the_known_ones():
    with pytest.raises(UserError, match="unknown training source.*wikipedia.*the sources are ted_saranyan"):
        train_config_from_args(_parse("--sources", "wikipedia=1"))


def test_all_weights_zero_is_refused():
    zero = ",".join(f"{name}=0" for name in DEFAULT_SOURCES)
    with pytest.raises(UserError, match="at least one"):
        train_config_from_args(_parse("--sources", zero))


def test_asr_errors_share_reaches_the_config_and_must_be_a_probability():
    assert train_config_from_args(_parse()).asr_errors == 0.0
    assert train_config_from_args(_parse("--asr-errors", "0.5")).asr_errors == 0.5
    with pytest.raises(argparse.ArgumentError, match="probability"):
        _parse("--asr-errors", "2")


def test_every_option_defaults_to_the_config_field():
    from dataclasses import fields

    from editor.restore.lab.train_config import DEFAULT_DATA_DIR, TrainConfig

    parsed, plain = train_config_from_args(_parse()), TrainConfig()
    for f in fields(TrainConfig):
        if f.name not in ("model", "cache_dir"):
            assert getattr(parsed, f.name) == getattr(plain, f.name), f.name
    assert plain.data_dir == DEFAULT_DATA_DIR and plain.tokens == 55_000_000
    cfg = train_config_from_args(_parse("--tokens", "2e6", "--stop-at", "1e5", "--data", "d"))
    assert (cfg.tokens, cfg.stop_at, cfg.data_dir) == (2_000_000, 100_000, "d")
    assert isinstance(cfg.tokens, int) and isinstance(cfg.stop_at, int)
