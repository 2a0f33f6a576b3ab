import subprocess
import sys
import threading

import pytest

from editor.restore.passes.inference import Restorer
from editor.restore.passes.prediction import Cancelled

WORDS = ("so what is the iphone for i asked and you said it is okay yes " * 12).split()


@pytest.fixture(scope="module")
def restorer(tiny_model_dir):
    return Restorer.load(str(tiny_model_dir), device="cpu")


def test_every_word_gets_a_full_distribution(restorer):
    preds = restorer.restore(WORDS)
    assert len(preds) == len(WORDS)
    for w, p in zip(WORDS, preds):
        assert sum(p.punct_probs.values()) == pytest.approx(1.0, abs=1e-4)
        assert sum(p.case_probs.values()) == pytest.approx(1.0, abs=1e-4)
        assert p.punct in p.punct_probs and p.case in p.case_probs
        assert p.text.lower() == w
        if w != "iphone":
            assert p.case_probs["mixed"] == 0.0  # no mixed form known for this word


def test_chunks_arrive_once_each_and_the_priority_range_comes_first(restorer):
    seen = []
    restorer.restore(WORDS, on_chunk=lambda a, b, preds: seen.append((a, b, len(preds))), priority=(150, 160))
    assert all(b - a == n for a, b, n in seen)
    covered = sorted((a, b) for a, b, _ in seen)
    assert covered[0][0] == 0 and covered[-1][1] == len(WORDS)
    assert all(x[1] == y[0] for x, y in zip(covered, covered[1:]))
    assert seen[0][0] < 160 and seen[0][1] > 150


def test_chunked_result_matches_the_merged_result(restorer):
    chunks = {}
    full = restorer.restore(WORDS, on_chunk=lambda a, b, preds: chunks.update({a: preds}))
    assert [p for a in sorted(chunks) for p in chunks[a]] == full


def test_pauses_between_pieces_change_nothing(restorer):
    """``pause`` is called between the pieces of Python work (the window's process gives its
    steps the interpreter there: editor.gui.base.turns.WindowTurns.give_way), and the result is the same."""
    pauses = []
    chunks_at = []
    paused = restorer.restore(WORDS, pause=lambda: pauses.append(len(chunks_at)),
                              on_chunk=lambda a, b, preds: chunks_at.append(len(pauses)))
    plain = restorer.restore(WORDS)
    assert paused == plain
    assert len(pauses) > 2 * len(chunks_at)  # several times per batch, not only between chunks
    assert chunks_at[0] > 0  # before the first chunk's predictions, too


def test_cancel_stops_with_cancelled(restorer):
    stop = threading.Event()
    stop.set()
    with pytest.raises(Cancelled):
        restorer.restore(WORDS, cancel=stop)


def test_empty_input(restorer):
    assert restorer.restore([]) == []


def test_importing_editor_restore_does_not_load_torch():
    code = "import editor.restore, editor.restore.passes.suggest, sys; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_separate_heads_give_a_joint_distribution():
    import torch

    from editor.restore.model.bilstm_crf import BiLSTMCRF, ModelConfig

    torch.manual_seed(0)
    m = BiLSTMCRF(ModelConfig(vocab_size=10, n_chars=5, word_dim=4, char_dim=2, char_filters=3, hidden=4, heads="separate"))
    words, chars = torch.randint(2, 10, (2, 5)), torch.randint(1, 5, (2, 5, 16))
    mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]], dtype=torch.bool)
    j = m.joint_marginals(words, chars, mask)
    assert j.shape == (2, 5, 28)
    assert torch.allclose(j.sum(2), mask.float(), atol=1e-5)
    loss = m.loss(words, chars, torch.randint(0, 28, (2, 5)), mask)
    loss.backward()
    assert loss.item() > 0


def test_the_mark_decision_weighs_whole_groups_then_picks_the_likeliest_mark():
    import numpy as np

    from editor.restore.passes.decision import decide_marks, decision_scales
    from editor.restore.model.labels import PUNCT_MARKS

    # columns: none , . ? ! : ;
    p = np.array([
        [0.45, 0.00, 0.30, 0.00, 0.25, 0.00, 0.00],  # a sentence end (0.55) though "no mark" is the top mark
        [0.40, 0.20, 0.00, 0.00, 0.00, 0.25, 0.15],  # comma-like 0.45 beats "no mark"; ":" is its likeliest mark
        [0.60, 0.10, 0.10, 0.20, 0.00, 0.00, 0.00],
    ])
    plain = decide_marks(p, decision_scales({}))
    assert [PUNCT_MARKS[i] for i in plain] == [".", ":", ""]
    # weights come from class_scales; an older config's none_scale weighs "no mark" alone
    assert [PUNCT_MARKS[i] for i in decide_marks(p, decision_scales({"none_scale": 0.3}))] == [".", ":", "?"]
    heavy_none = decision_scales({"class_scales": {"O": 1.0, "COMMA": 0.5, "PERIOD": 0.5, "QUESTION": 1.0}})
    assert list(heavy_none) == [1.0, 0.5, 0.5, 1.0]
    assert [PUNCT_MARKS[i] for i in decide_marks(p, heavy_none)] == ["", "", ""]


def test_character_features_computed_once_per_word_equal_the_cnn_at_every_position(restorer):
    import numpy as np
    import torch

    from editor.restore.passes.windows import CharFeatures

    # known words repeated, unknown words of different spellings (one <unk> id), and padding
    words = "so what is zebra the iphone zebras so what qwxyz".split()
    wid, cid = restorer.vocab.encode(words)
    w = np.stack([wid, np.r_[wid[:7], 0, 0, 0]])
    c = np.stack([cid, np.concatenate([cid[:7], np.zeros_like(cid[7:])])])
    feats = CharFeatures(restorer.model, torch.device("cpu"))
    got = feats(w, c)
    with torch.no_grad():
        want = restorer.model.char_cnn(torch.from_numpy(c.reshape(-1, c.shape[2]))).reshape(2, len(words), -1)
    torch.testing.assert_close(got, want)
    assert feats.known[wid[wid > 1]].all()
    assert not feats.known[1]  # <unk> is never cached: its spelling differs from word to word


def test_restoring_in_batches_equals_predicting_the_merged_marginals_at_once(restorer):
    from editor.restore.passes.windows import joint_marginals_chunked

    joint = joint_marginals_chunked(restorer.model, restorer.vocab, WORDS, restorer.size, restorer.overlap,
                                    restorer.cut, restorer.merge)
    want = restorer.predictions(WORDS, joint, first_is_start=True, last_is_end=True)
    regions = []
    got = restorer.restore(WORDS, on_chunk=lambda a, b, preds: regions.append((a, b)))
    # 180 words in windows of 12: a first batch of 4 windows, then one batch of the rest; the
    # regions a batch owns are adjacent, so each batch reports once
    assert regions == [(0, regions[0][1]), (regions[0][1], len(WORDS))]
    assert [(p.punct, p.case, p.text) for p in got] == [(p.punct, p.case, p.text) for p in want]
    for g, w in zip(got, want):
        assert g.punct_probs == pytest.approx(w.punct_probs, abs=1e-5)
        assert g.case_probs == pytest.approx(w.case_probs, abs=1e-5)


def test_the_last_word_of_a_text_ends_a_sentence_keeping_the_models_choice_among_end_marks(restorer):
    import numpy as np

    from editor.restore.model.labels import N_CASE, N_PUNCT, PUNCT_MARKS

    words = "see you next time".split()
    joint = np.zeros((4, N_PUNCT, N_CASE), np.float32)
    joint[:, 0, 0] = 0.7  # "no mark" likeliest everywhere
    joint[:, PUNCT_MARKS.index(","), 0] = 0.2
    joint[:, PUNCT_MARKS.index("?"), 0] = 0.075
    joint[:, PUNCT_MARKS.index("."), 0] = 0.025
    joint = joint.reshape(4, -1)
    inside = restorer.predictions(words, joint)
    assert inside[-1].punct == ""  # a window's last word may go on
    ended = restorer.predictions(words, joint, last_is_end=True)
    assert [p.punct for p in ended[:-1]] == [p.punct for p in inside[:-1]]
    last = ended[-1].punct_probs
    assert last["?"] + last["."] + last["!"] == pytest.approx(1.0, abs=1e-5)
    assert last["?"] == pytest.approx(0.75, abs=0.01) and ended[-1].punct == "?"
    assert restorer.restore(words)[-1].punct in ".?!"


def test_a_prediction_reads_the_same_from_rows_as_from_dicts_and_is_read_only():
    import numpy as np

    from editor.restore.passes.prediction import WordPrediction
    from editor.restore.model.labels import CASE_CLASSES, PUNCT_MARKS

    pp = np.asarray([0.1, 0.6, 0.2, 0.05, 0.05, 0.0, 0.0], np.float32)
    cp = np.asarray([0.3, 0.7, 0.0, 0.0], np.float32)
    rows = WordPrediction(",", pp, "capitalized", cp, "So")
    dicts = WordPrediction(",", dict(zip(PUNCT_MARKS, pp.tolist())), "capitalized", dict(zip(CASE_CLASSES, cp.tolist())), "So")
    assert rows == dicts
    assert rows.punct_probs == dicts.punct_probs and list(rows.punct_probs) == list(PUNCT_MARKS)
    assert rows.case_probs == dicts.case_probs
    assert rows.punct_confidence == dicts.punct_confidence == pytest.approx(0.6)
    assert rows.case_confidence == dicts.case_confidence == pytest.approx(0.7)
    assert isinstance(rows.punct_confidence, float)
    assert rows != WordPrediction(".", pp, "capitalized", cp, "So")
    with pytest.raises(AttributeError, match="read-only"):
        rows.punct = "."
    # what a caller gets is its own copy
    rows.punct_probs[","] = 0.0
    assert rows.punct_probs[","] == pytest.approx(0.6)
    assert "punct_probs={'': 0.1" in repr(rows)


def test_restored_distributions_cannot_be_changed_through_the_arrays_behind_them(restorer):
    preds = restorer.restore(WORDS[:30])
    with pytest.raises(ValueError):
        preds[0]._punct_p[0] = 1.0


def test_a_capital_is_suggested_only_where_likelier_than_lower_and_shows_its_probability(tiny_model_dir):
    import numpy as np

    r = Restorer.load(str(tiny_model_dir), device="cpu")
    # three words, no marks; the middle one is 40 % capitalized, then 60 %, then 99 % (a name)
    joint = np.zeros((3, 7, 4), np.float32)
    joint[:, 0, 0] = 1.0
    words = ["so", "what", "is"]
    for cap, expected in ((0.4, "what"), (0.6, "What"), (0.99, "What")):
        joint[1, 0] = [1 - cap, cap, 0.0, 0.0]
        p = r.predictions(words, joint.reshape(3, 28))[1]
        assert p.text == expected
        assert p.case_probs["capitalized"] == pytest.approx(cap, abs=0.02)  # calibrated, T = 1 here
        if expected != "what":
            assert p.case_confidence > p.case_probs["lower"]


@pytest.mark.parametrize("per_batch, priority", [(1, None), (1, (100, 110)), (2, (60, 70)), (3, (170, 180)), (64, None)])
def test_every_batching_and_priority_gives_the_predictions_of_the_whole_text_at_once(restorer, monkeypatch,
                                                                                     per_batch, priority):
    """A region's first word reads the mark before it from the window that owns that word, which
    may run in a later batch: the result (and the capital after an end mark) never depends on the
    order windows are computed in. Each window here sees every word differently (peaked random
    marginals seeded by the window), as a real model's windows do near their edges."""
    import numpy as np

    from editor.restore.passes import windows
    from editor.restore.passes.chunks import merge_owned, plan_chunks

    def fake_windows(model, wid, cid, plan, idx, device, char_features):
        out = []
        for i in idx:
            s, e = plan.windows[i]
            out.append(np.random.default_rng(i).dirichlet(np.full(28, 0.3), e - s).astype(np.float32))
        return out

    monkeypatch.setattr(windows, "run_windows", fake_windows)
    monkeypatch.setattr(restorer, "windows_per_batch", per_batch)
    plan = plan_chunks(len(WORDS), restorer.size, restorer.overlap, restorer.cut)
    joint = merge_owned(plan, fake_windows(None, None, None, plan, range(len(plan.windows)), None, None))
    want = restorer.predictions(WORDS, joint, first_is_start=True, last_is_end=True)
    regions = {}
    got = restorer.restore(WORDS, on_chunk=lambda a, b, preds: regions.update({a: (b, preds)}), priority=priority)
    starts = sorted(regions)
    assert starts[0] == 0 and all(regions[x][0] == y for x, y in zip(starts, starts[1:]))
    assert regions[starts[-1]][0] == len(WORDS)
    assert [p for a in starts for p in regions[a][1]] == got
    assert [(p.punct, p.case, p.text) for p in got] == [(p.punct, p.case, p.text) for p in want]
    for g, w in zip(got, want):
        assert g.case_probs == pytest.approx(w.case_probs, abs=1e-6)
        assert g.punct_probs == pytest.approx(w.punct_probs, abs=1e-6)


def test_an_empty_word_is_refused_by_name(restorer):
    with pytest.raises(ValueError, match="word 1 is empty"):
        restorer.restore(["hello", " ", "world"])


def test_a_paragraph_break_multiplies_the_odds_of_a_sentence_end_before_it(restorer, monkeypatch):
    """With paragraph_end_odds k, the word before a paragraph start has its end marks' odds
    multiplied by k (their proportions kept), the other words are untouched, and the next word's
    capital follows the suggested end mark; 1 leaves everything as the words alone give it."""
    from editor.restore.model.labels import PUNCT_MARKS

    starts = [30, 75, 150]
    plain = restorer.restore(WORDS)
    assert restorer.restore(WORDS, paragraph_starts=starts) == plain  # the tiny model's config: odds 1
    monkeypatch.setattr(restorer, "paragraph_end_odds", 50.0)
    boosted = restorer.restore(WORDS, paragraph_starts=starts)
    ends = (".", "?", "!")
    for i, (p, q) in enumerate(zip(plain, boosted)):
        if i + 1 in starts:
            assert q.punct in ends and q.punct_probs["."] / q.punct_probs["?"] == pytest.approx(
                p.punct_probs["."] / p.punct_probs["?"], rel=1e-4)
            odds = lambda d: sum(d[m] for m in ends) / (1 - sum(d[m] for m in ends))  # noqa: E731
            assert odds(q.punct_probs) == pytest.approx(50 * odds(p.punct_probs), rel=1e-4)
            assert boosted[i + 1].text[0].isupper()
        elif i not in starts:
            assert q.punct_probs == pytest.approx(p.punct_probs, abs=1e-7)
    assert set(PUNCT_MARKS) == set(boosted[0].punct_probs)


def test_a_snapshot_carries_the_paragraph_starts_of_its_range():
    from editor.core.document.transcript import Transcript

    doc = Transcript.from_text("one two three\n\nfour five\n\nsix seven eight")
    assert doc.snapshot().paragraph_starts == (0, 3, 5)
    assert doc.snapshot(2, 6).paragraph_starts == (1, 3)
