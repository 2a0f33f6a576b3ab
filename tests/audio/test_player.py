"""The playback engine against the fake output, where the test says how much time passes."""

from __future__ import annotations

import numpy as np
import pytest

from editor.audio import PcmAudio, Player
from tests.audio.sounds import ramp_audio, tone
from tests.fakes.audio import FakeOutputBackend

RATE = 16_000


@pytest.fixture
def player(fake_output):
    p = Player(fake_output)
    p.set_audio(ramp_audio(3.0, RATE))
    yield p
    p.close()


def test_plays_the_samples_in_order_and_reports_the_position(player, fake_output):
    assert player.play() and player.playing
    out = fake_output.advance(0.5)
    expected = ramp_audio(3.0, RATE).samples[:8000, 0] / 32768.0
    np.testing.assert_allclose(out[:, 0], expected, atol=1e-6)
    # the position is where the block being rendered starts: at most one block behind
    assert 0.5 - 160 / RATE <= player.position <= 0.5


def test_pause_holds_the_position_and_play_resumes_there(player, fake_output):
    player.play()
    fake_output.advance(1.0)
    player.pause()
    held = player.position
    assert not player.playing and not fake_output.stream.active
    fake_output.advance(1.0)  # a paused stream is not asked for sound
    assert player.position == held
    player.play()
    out = fake_output.advance(0.01)
    assert out[0, 0] == pytest.approx(round(held * RATE) / 32768.0, abs=1e-6)


def test_rewind_when_resuming(fake_output):
    player = Player(fake_output, rewind_on_resume=2.0)
    player.set_audio(ramp_audio(5.0, RATE))
    player.play()
    fake_output.advance(1.0)
    player.pause()
    player.play()  # not before the start
    assert player.position == 0.0
    fake_output.advance(3.0)
    player.pause()
    at = player.position
    player.play()
    assert player.position == pytest.approx(at - 2.0)
    # a seek while paused is a deliberate place: no rewind from there
    player.pause()
    player.seek(4.0)
    player.play()
    assert player.position == 4.0


def test_seek_while_playing_plays_from_there(player, fake_output):
    player.play()
    fake_output.advance(0.2)
    player.seek(2.0)
    assert player.position == 2.0
    out = fake_output.advance(0.01)
    assert out[0, 0] == pytest.approx((32000 % 30000) / 32768.0, abs=1e-6)
    assert player.position == pytest.approx(2.0, abs=0.011)


def test_seek_and_skips_clamp_to_the_recording(player):
    player.seek(-4)
    assert player.position == 0.0
    player.seek(99)
    assert player.position == 3.0
    player.seek(float("nan"))
    assert player.position == 3.0
    player.seek(1.0)
    player.skip_forward()
    assert player.position == 3.0
    player.skip_seconds = 0.5
    player.skip_back()
    assert player.position == 2.5


def test_reaching_the_end_stops_and_play_starts_over(player, fake_output):
    player.play()
    fake_output.advance(3.5)
    assert not player.playing
    assert player.position == pytest.approx(3.0)
    assert not fake_output.stream.active
    assert player.play()
    assert player.position == 0.0
    fake_output.advance(0.1)
    assert player.playing


def test_seek_back_after_the_end_while_still_wanted_restarts(player, fake_output):
    player.play()
    fake_output.advance(3.5)
    player.seek(1.0)  # e.g. the person clicks a word while "playing" had just run out
    assert player.playing and fake_output.stream.active


@pytest.mark.parametrize("speed", [0.5, 0.75, 1.5, 2.0])
def test_speed_changes_time_not_pitch(fake_output, speed):
    player = Player(fake_output)
    player.set_audio(PcmAudio.from_float(tone(2.0, RATE, freq=440.0), RATE))
    player.set_speed(speed)
    player.play()
    out = fake_output.advance(0.5)[:, 0]
    assert np.isfinite(out).all()
    # half a second of device time covers speed x half a second of the recording; the position is
    # where the last block started
    assert player.position == pytest.approx((0.5 - 160 / RATE) * speed, abs=1e-9)
    spectrum = np.abs(np.fft.rfft(out[1600:] * np.hanning(len(out) - 1600)))
    peak = np.fft.rfftfreq(len(out) - 1600, 1 / RATE)[spectrum.argmax()]
    assert peak == pytest.approx(440.0, abs=8.0)


def test_stretched_playback_reaches_the_end(fake_output):
    player = Player(fake_output)
    player.set_audio(PcmAudio.from_float(tone(1.0, RATE), RATE))
    player.set_speed(2.0)
    player.play()
    fake_output.advance(0.45)
    assert player.playing
    fake_output.advance(0.2)
    assert not player.playing and player.position == 1.0


def test_speed_change_while_playing_keeps_the_place(player, fake_output):
    player.play()
    fake_output.advance(1.0)
    at = player.position
    player.set_speed(0.5)
    fake_output.advance(1.0)
    assert player.position == pytest.approx(at + 0.5, abs=0.02)
    player.set_speed(1.0)
    fake_output.advance(0.5)
    assert player.position == pytest.approx(at + 1.0, abs=0.03)


def test_speed_is_clamped_and_stepped(player):
    events = []
    player.speed_changed.connect(events.append)
    assert player.set_speed(5) == 2.0
    assert player.set_speed(0.1) == 0.5
    assert player.faster() == 0.6
    assert player.slower() == 0.5
    assert player.slower() == 0.5
    assert events == [2.0, 0.5, 0.6, 0.5]
    with pytest.raises(ValueError):
        player.set_speed(float("nan"))


def test_events_say_what_the_caller_changed(player, fake_output):
    states = []
    player.state_changed.connect(states.append)
    assert player.toggle() is True
    assert player.toggle() is False
    player.set_audio(None)
    assert states == [True, False]
    assert player.duration == 0.0 and player.play() is False


def test_a_busy_lock_gives_one_block_of_silence_not_a_wait(player, fake_output):
    player.play()
    with player._lock:  # the UI thread is in the middle of a seek
        out = fake_output.advance(0.01)
    assert (out == 0).all()
    assert player.playing


def test_no_device_leaves_everything_else_working():
    player = Player(FakeOutputBackend(reason="no sound: no audio output device"))
    assert not player.available
    assert player.notice == "no sound: no audio output device"
    player.set_audio(ramp_audio(2.0, RATE))
    assert player.play() is False and not player.playing
    player.seek(1.5)
    assert player.position == 1.5
    player.toggle()
    player.pause()
    player.skip_back()
    player.set_speed(1.5)
    player.close()


def test_a_device_that_will_not_open_is_reported_once(fake_output):
    backend = FakeOutputBackend(fail_open="Invalid sample rate")
    player = Player(backend)
    player.set_audio(ramp_audio(1.0, RATE))
    assert player.play() is False
    assert player.notice == "cannot play: Invalid sample rate"
    assert player.available  # another file, another rate, may play


def test_a_failing_backend_probe_means_no_sound():
    class Broken(FakeOutputBackend):
        def probe(self):
            raise RuntimeError("driver exploded")

    player = Player(Broken())
    assert not player.available and "driver exploded" in player.notice


def test_render_never_raises(player, fake_output):
    player.play()
    player._audio = object()  # a bug elsewhere must not kill the audio thread
    out = fake_output.advance(0.01)
    assert (out == 0).all()
    assert not player.playing and player.notice.startswith("playback stopped")


def test_stereo_plays_both_channels(fake_output):
    player = Player(fake_output)
    left_right = np.stack([tone(0.5, RATE)[:, 0], -tone(0.5, RATE)[:, 0]], axis=1)
    player.set_audio(PcmAudio.from_float(left_right, RATE))
    player.play()
    out = fake_output.advance(0.1)
    assert out.shape[1] == 2
    np.testing.assert_allclose(out[:, 0], -out[:, 1], atol=1e-4)


def test_the_position_is_what_is_heard_not_what_is_rendered():
    output = FakeOutputBackend(latency=0.1)  # the device plays each block 100 ms after asking
    player = Player(output)
    player.set_audio(ramp_audio(3.0, RATE))
    player.seek(1.0)
    player.play()
    output.advance(0.05)
    assert player.position == 1.0  # the sound from the seek is not heard yet: hold, never go back
    output.advance(0.45)
    assert player.position == pytest.approx(1.0 + 0.5 - 160 / RATE - 0.1)
    player.set_speed(2.0)
    output.advance(0.5)
    at = player.position
    assert at == pytest.approx(1.39 + (0.5 - 160 / RATE - 0.1) * 2, abs=1e-6)
    player.pause()  # resumes from what was heard; the queued, unheard sound plays again
    assert player.position == at
    player.play()
    out = output.advance(0.01)
    assert np.isfinite(out).all()


def test_a_passage_plays_from_its_start_and_stops_at_its_end(player, fake_output):
    assert player.play_span(1.0, 1.5)
    assert player.playing and player.position == 1.0 and player.span_end == 1.5
    out = fake_output.advance(1.0)  # more than the passage: the rest is silence, and it stops
    expected = ramp_audio(3.0, RATE).samples[16000:24000, 0] / 32768.0
    np.testing.assert_allclose(out[:8000, 0], expected, atol=1e-6)
    assert not np.any(out[8000:])
    assert not player.playing and player.span_end is None
    assert player.position == pytest.approx(1.5)
    assert not fake_output.stream.active


def test_play_after_a_passage_goes_on_from_its_end(player, fake_output):
    player.play_span(1.0, 1.5)
    fake_output.advance(1.0)
    assert player.play()
    out = fake_output.advance(0.01)
    assert out[0, 0] == pytest.approx(24000 / 32768.0, abs=1e-6)
    fake_output.advance(1.0)
    assert player.playing  # no stop any more
    assert player.position > 2.4


def test_a_passage_again_while_one_plays_starts_afresh(player, fake_output):
    player.play_span(1.0, 1.5)
    fake_output.advance(0.2)
    assert player.play_span(0.5, 0.7)
    assert player.position == 0.5 and player.playing
    fake_output.advance(0.5)
    assert not player.playing and player.position == pytest.approx(0.7)
    assert player.play_span(2.0, 2.2)  # after one ended, the stream starts again
    assert player.playing and fake_output.stream.active
    fake_output.advance(0.5)
    assert player.position == pytest.approx(2.2)


def test_a_seek_or_pause_during_a_passage_lets_it_play_on(player, fake_output):
    player.play_span(0.0, 0.3)
    player.seek(1.0)  # the person clicked the timeline: playing goes on past the passage
    fake_output.advance(0.5)
    assert player.playing and player.span_end is None
    player.play_span(2.0, 2.3)
    player.pause()
    player.play()
    fake_output.advance(0.5)
    assert player.playing


def test_a_seek_after_a_passage_ended_does_not_start_playing(player, fake_output):
    player.play_span(1.0, 1.2)
    fake_output.advance(0.5)
    player.seek(0.2)
    assert not player.playing and not fake_output.stream.active


def test_a_slower_passage_stops_at_its_end_too(fake_output):
    p = Player(fake_output)
    p.set_audio(PcmAudio.from_float(tone(3.0, RATE), RATE))
    p.set_speed(0.75)
    p.play_span(1.0, 1.6)
    fake_output.advance(0.6 / 0.75 - 0.05)
    assert p.playing
    fake_output.advance(0.3)
    assert not p.playing and p.position == pytest.approx(1.6)


def test_a_passage_without_sound_or_audio_does_not_play(fake_output):
    p = Player(fake_output)
    assert not p.play_span(0.0, 1.0)
    silent = Player(FakeOutputBackend(reason="no device"))
    silent.set_audio(ramp_audio(1.0, RATE))
    assert not silent.play_span(0.0, 0.5) and not silent.playing
