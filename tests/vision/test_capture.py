"""Frame sources: every kind, the one-slot buffer, reconnection with backoff, and bad input.

No real webcam: a camera is played by a stand-in for ``cv2.VideoCapture`` whose device file
lives in tmp_path (delete it to unplug the camera), and a stream by an MJPEG server on
127.0.0.1. Every wait is bounded.
"""

from __future__ import annotations

import http.server
import threading
import time
import tracemalloc

import cv2
import numpy as np
import pytest

from tableref.vision import capture
from tableref.vision.capture import (
    CaptureSettings, Frame, FrameReader, SourceState, open_source, register_source, registered_sources,
    unregister_source,
)
from tableref.vision.errors import ImageError, SourceError, SourceLost

SEED = 7
#: Longest any test waits for a source to change state, in seconds.
PATIENCE_S = 8.0
#: Backoff fast enough for tests.
FAST_BACKOFF = {"backoff_initial_s": 0.02, "backoff_factor": 2.0, "backoff_max_s": 0.08}


def _wait_for(predicate, timeout: float = PATIENCE_S, step: float = 0.005) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


def _image(value: int, height: int = 24, width: int = 32) -> np.ndarray:
    return np.full((height, width, 3), value % 256, np.uint8)


def _folder(root, names, height: int = 24, width: int = 32):
    """Write one PNG per name, pixel value = its position in ``names``; return the folder."""
    root.mkdir(parents=True, exist_ok=True)
    for i, name in enumerate(names):
        assert cv2.imwrite(str(root / name), _image(i, height, width))
    return root


def _video(path, frames: int, fps: float = 25.0):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (32, 24))
    assert writer.isOpened()
    for i in range(frames):
        writer.write(_image(i * 20))
    writer.release()
    return path


# ---------------------------------------------------------------------- records and settings
GOOD = _image(1)


@pytest.mark.parametrize(("image", "timestamp", "sequence", "source", "message"), [
    (GOOD.astype(np.float32), 1.0, 0, "s", "dtype uint8"),
    (GOOD[:, :, 0], 1.0, 0, "s", "shape (H, W, 3)"),
    (np.zeros((4, 4, 4), np.uint8), 1.0, 0, "s", "shape (H, W, 3)"),
    (np.zeros((0, 4, 3), np.uint8), 1.0, 0, "s", "is empty"),
    (GOOD.tolist(), 1.0, 0, "s", "numpy array"),
    (GOOD, float("nan"), 0, "s", "finite"),
    (GOOD, -1.0, 0, "s", ">= 0 seconds"),
    (GOOD, True, 0, "s", "number of seconds"),
    (GOOD, "now", 0, "s", "number of seconds"),
    (GOOD, 1.0, -1, "s", "sequence must be >= 0"),
    (GOOD, 1.0, 1.5, "s", "sequence must be an integer"),
    (GOOD, 1.0, 0, "", "non-empty name"),
    (GOOD, 1.0, 0, None, "non-empty name"),
])
def test_frame_validates_itself(image, timestamp, sequence, source, message):
    with pytest.raises(ImageError) as info:
        Frame(image, timestamp, sequence, source)
    assert message in str(info.value)


def test_frame_image_is_read_only_but_the_callers_array_is_not():
    array = _image(5)
    frame = Frame(array, 12, np.int64(3), "camera 0")
    with pytest.raises(ValueError):
        frame.image[0, 0, 0] = 1
    array[0, 0, 0] = 9
    assert frame.image[0, 0, 0] == 9 and isinstance(frame.sequence, int) and isinstance(frame.timestamp, float)
    assert frame.to_json() == {"source": "camera 0", "sequence": 3, "timestamp": 12.0, "width": 32, "height": 24}


@pytest.mark.parametrize(("changes", "message"), [
    ({"folder_fps": 0}, "folder_fps must be a number > 0"),
    ({"video_fps": -2.0}, "video_fps must be a number > 0"),
    ({"open_timeout_s": float("inf")}, "open_timeout_s must be a number"),
    ({"backoff_factor": 0.5}, "backoff_factor must be a number >= 1"),
    ({"backoff_initial_s": 2.0, "backoff_max_s": 1.0}, "backoff_max_s (1.0) must be >="),
    ({"max_reconnects": -1}, "max_reconnects must be an integer >= 0"),
    ({"loop": "yes"}, "loop must be true or false"),
    ({"frame_size": (640,)}, "frame_size must be (width, height)"),
    ({"frame_size": (640, 0)}, "frame_size must be (width, height)"),
    ({"max_pixels": 0}, "max_pixels must be a positive integer"),
    ({"fps": 3}, "unknown capture setting(s) fps; known: backoff_factor"),
])
def test_bad_settings_are_refused(changes, message):
    with pytest.raises(SourceError) as info:
        CaptureSettings().replaced(**changes)
    assert message in str(info.value)


@pytest.mark.parametrize(("initial", "factor", "cap", "delays"), [
    (0.5, 2.0, 4.0, [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]),
    (1.0, 1.0, 1.0, [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]),
    (0.1, 3.0, 10.0, [0.1, 0.3, 0.9, 2.7, 8.1, 10.0]),
])
def test_backoff_grows_and_is_capped(initial, factor, cap, delays):
    settings = CaptureSettings(backoff_initial_s=initial, backoff_factor=factor, backoff_max_s=cap)
    assert [settings.backoff_delay(a) for a in range(1, 7)] == pytest.approx(delays)
    assert settings.backoff_delay(10_000) == cap


def test_settings_from_a_config_mapping():
    settings = CaptureSettings.from_mapping({"folder_fps": 2, "loop": True, "frame_size": [1280, 720]})
    assert (settings.folder_fps, settings.loop, settings.frame_size) == (2, True, (1280, 720))
    assert settings.read_timeout_s == CaptureSettings().read_timeout_s


# ---------------------------------------------------------------------- bad sources
def _missing_camera(tmp_path, monkeypatch):
    monkeypatch.setattr(capture, "CAMERA_DEVICE_PATTERN", str(tmp_path / "video{index}"))
    return "7"


@pytest.mark.parametrize(("make", "message"), [
    (lambda d, m: "", "empty source"),
    (lambda d, m: "   ", "empty source"),
    (lambda d, m: 12, "source must be text or a path, got int"),
    (lambda d, m: "-1", "camera index must be 0 or more"),
    (_missing_camera, "camera 7 cannot be opened: no such device"),
    (lambda d, m: str(d / "nothing-here.avi"), "no such file or folder"),
    (lambda d, m: str(_folder(d / "empty", [])), "is empty"),
    (lambda d, m: str(_note(d / "notes", "a.txt")), "holds no images"),
    (lambda d, m: str(d / "*.png"), "matches no files"),
    (lambda d, m: str(_note(d / "notes", "b.txt") / "*"), "matches 1 file(s) but none is an image"),
    (lambda d, m: str(_junk_image(d)), "has no readable image"),
    (lambda d, m: str(_note(d, "clip.avi")), "cannot be opened: OpenCV cannot read it"),
    (lambda d, m: str(_note(d, "empty.mp4", "")), "cannot be opened"),
    (lambda d, m: "rtsp://", "malformed stream URL 'rtsp://'"),
    (lambda d, m: "http://host:99999/x", "malformed stream URL"),
    (lambda d, m: "http://ho st/x", "malformed stream URL"),
    (lambda d, m: "ftp://host/x", "the scheme must be one of rtsp://, http://, https://"),
    (lambda d, m: "rtsp://user:secret@127.0.0.1:1/cam", "stream 'rtsp://user:***@127.0.0.1:1/cam' cannot be opened"),
], ids=["empty", "blank", "not-text", "negative-index", "no-camera", "missing-file", "empty-folder",
        "folder-without-images", "glob-no-match", "glob-no-images", "only-corrupt-image", "not-a-video",
        "empty-video", "url-no-host", "url-bad-port", "url-space", "url-scheme", "url-password-hidden"])
def test_a_source_that_cannot_be_opened_says_why(tmp_path, monkeypatch, make, message):
    spec = make(tmp_path, monkeypatch)
    started = time.monotonic()
    with pytest.raises(SourceError) as info:
        open_source(spec, open_timeout_s=1.0)
    assert message in str(info.value)
    assert "secret" not in str(info.value)
    assert time.monotonic() - started < 3.0


def _note(folder, name, text="not an image or a video"):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text)
    return folder if name.endswith(".txt") else folder / name


def _junk_image(folder):
    (folder / "junk.png").write_bytes(b"\x89PNG\r\n\x1a\n truncated")
    return folder / "junk.png"


# ---------------------------------------------------------------------- file sources
def test_folder_plays_in_name_order_then_ends(tmp_path):
    names = ["shot10.png", "shot2.png", "shot1.jpg", "notes.txt"]
    root = _folder(tmp_path / "shots", names[:3])
    (root / names[3]).write_text("ignored")
    with open_source(str(root), folder_fps=200, every_frame=True) as source:
        frames = list(source)
        status = source.status()
    # name order with numbers as numbers: shot1, shot2, shot10 (pixel value = position in `names`)
    assert [int(f.image[0, 0, 0]) for f in frames] == [2, 1, 0]
    assert [f.sequence for f in frames] == [0, 1, 2]
    assert all(f.source == f"image folder {str(root)!r}" for f in frames)
    assert (status.state, status.frames, status.delivered, status.skipped) == (SourceState.ENDED, 3, 3, 0)


def test_glob_picks_its_images_and_a_single_image_file_is_a_source(tmp_path):
    root = _folder(tmp_path, ["a1.png", "a2.png", "b1.png"])
    with open_source(str(root / "a*.png"), folder_fps=200, every_frame=True) as source:
        assert [int(f.image[0, 0, 0]) for f in source] == [0, 1]
    with open_source(root / "b1.png") as source:
        assert [int(f.image[0, 0, 0]) for f in source] == [2]


def test_folder_is_played_at_the_set_rate(tmp_path):
    root = _folder(tmp_path, [f"{i}.png" for i in range(5)])
    with open_source(str(root), folder_fps=25, every_frame=True) as source:
        stamps = [f.timestamp for f in source]
    assert len(stamps) == 5
    assert stamps[-1] - stamps[0] >= 4 / 25 * 0.9


def test_folder_loops_when_asked_and_skips_a_bad_image(tmp_path):
    root = _folder(tmp_path, ["1.png", "2.png", "3.png"])
    (root / "2.png").write_bytes((root / "2.png").read_bytes()[:40])  # truncated
    with open_source(str(root), folder_fps=300, loop=True) as source:
        assert _wait_for(lambda: source.status().frames >= 6)  # three passes over the two good images
        frames = [source.read(PATIENCE_S) for _ in range(4)]
    status = source.status()
    # frames alternate 1.png, 3.png (pixel values 0 and 2): even sequence numbers are 1.png
    assert [int(f.image[0, 0, 0]) for f in frames] == [2 * (f.sequence % 2) for f in frames]
    assert [f.sequence for f in frames] == sorted({f.sequence for f in frames})
    assert status.state is SourceState.CLOSED
    assert "2.png" in status.last_error and "truncated" in status.last_error


def test_video_file_plays_every_frame_then_ends_or_loops(tmp_path):
    path = _video(tmp_path / "clip.avi", frames=6)
    with open_source(str(path), video_fps=200, every_frame=True) as source:
        frames = list(source)
        assert source.status().state is SourceState.ENDED
    assert [f.sequence for f in frames] == list(range(6))
    assert [int(f.image[0, 0, 0]) for f in frames] == pytest.approx([i * 20 for i in range(6)], abs=3)
    assert frames[0].source == f"video file {str(path)!r}" and frames[0].image.shape == (24, 32, 3)
    with open_source(str(path), video_fps=200, loop=True) as source:
        sequences = [source.read(PATIENCE_S).sequence for _ in range(14)]
        assert source.status().state is SourceState.LIVE
    assert sequences == sorted(sequences) and sequences[-1] >= 13


# ---------------------------------------------------------------------- the one-slot buffer
def test_newest_frame_wins_and_the_missed_ones_are_counted(tmp_path):
    count = 30
    root = _folder(tmp_path, [f"{i:02d}.png" for i in range(count)])
    with open_source(str(root), folder_fps=1000) as source:
        assert _wait_for(lambda: source.status().state is SourceState.ENDED)
        frame = source.read(0)
        assert source.read(0.05) is None
        status = source.status()
    assert frame.sequence == count - 1 and int(frame.image[0, 0, 0]) == count - 1
    assert (status.frames, status.skipped, status.delivered) == (count, count - 1, 1)


def test_every_frame_mode_hands_a_slow_consumer_every_frame(tmp_path):
    root = _folder(tmp_path, [f"{i:02d}.png" for i in range(8)])
    with open_source(str(root), folder_fps=1000, every_frame=True) as source:
        values = []
        for frame in source:
            time.sleep(0.01)  # ten times slower than the source
            values.append(int(frame.image[0, 0, 0]))
        status = source.status()
    assert values == list(range(8)) and (status.skipped, status.delivered) == (0, 8)


def test_a_slow_consumer_gets_fresh_frames_and_memory_does_not_grow(tmp_path):
    height, width = 480, 640
    frame_bytes, reads, lag = height * width * 3, 6, 6
    root = _folder(tmp_path, [f"{i:02d}.png" for i in range(10)], height, width)
    tracemalloc.start()
    try:
        with open_source(str(root), folder_fps=400, loop=True) as source:
            baseline = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            seen = []
            for _ in range(reads):
                # a slow consumer: the source runs `lag` frames ahead before each read
                target = source.status().frames + lag
                assert _wait_for(lambda t=target: source.status().frames >= t)
                frame = source.read(PATIENCE_S)
                assert frame.sequence >= target - 1  # the newest frame (or one newer), never a stale one
                seen.append(frame.sequence)
            peak = tracemalloc.get_traced_memory()[1]
            status = source.status()
    finally:
        tracemalloc.stop()
    assert seen == sorted(set(seen)) and status.frames >= reads * lag
    assert status.skipped >= reads * (lag - 1) and status.delivered == reads
    assert status.frames - status.skipped - status.delivered in (0, 1)
    assert peak - baseline < 8 * frame_bytes, f"grew by {(peak - baseline) / frame_bytes:.1f} frames"


# ---------------------------------------------------------------------- registry and reconnection
class ScriptedReader(FrameReader):
    """A live source that works while ``up`` is set; records when it was (re)opened."""

    live = True

    def __init__(self, argument: str, up: threading.Event):
        self.name, self.up = f"scripted {argument}", up
        self.open_times: list[float] = []
        self.count = 0

    def open(self) -> None:
        self.open_times.append(time.monotonic())
        if not self.up.is_set():
            raise SourceError(f"{self.name} cannot be opened: refused")

    def read(self) -> np.ndarray:
        time.sleep(0.002)
        if not self.up.is_set():
            raise SourceLost(f"{self.name} stopped delivering frames")
        self.count += 1
        return _image(self.count)


@pytest.fixture
def scripted():
    """Register source ``scripted``; yields (up event, list of readers made)."""
    up, made = threading.Event(), []
    up.set()

    def factory(argument, settings):
        assert isinstance(settings, CaptureSettings)
        made.append(ScriptedReader(argument, up))
        return made[-1]

    register_source("scripted", factory)
    yield up, made
    unregister_source("scripted")


def test_registered_source_is_opened_by_name_with_its_argument(scripted):
    up, made = scripted
    assert "scripted" in registered_sources()
    with open_source("scripted:table-2") as source:
        frame = source.read(PATIENCE_S)
    assert frame.source == "scripted table-2" and made[0].name == "scripted table-2"


@pytest.mark.parametrize(("name", "message"), [
    ("scripted", "already registered"), ("Demo", "lower-case word"), ("d", "lower-case word"),
    ("http", "lower-case word"), ("7", "lower-case word"), ("two words", "lower-case word"),
])
def test_bad_registrations_are_refused(scripted, name, message):
    with pytest.raises(SourceError, match=message):
        register_source(name, lambda argument, settings: None)


def test_a_registered_name_may_be_any_word_even_a_kind_of_source(scripted):
    up, made = scripted
    register_source("video", lambda argument, settings: ScriptedReader(argument, up))
    try:
        with open_source("video:x") as source:
            assert source.read(PATIENCE_S).source == "scripted x"
    finally:
        unregister_source("video")


def test_a_factory_must_return_a_reader():
    register_source("broken", lambda argument, settings: "not a reader")
    try:
        with pytest.raises(SourceError, match="returned str, not a FrameReader"):
            open_source("broken")
    finally:
        unregister_source("broken")


def test_lost_source_reconnects_with_backoff_and_reports_its_state(scripted):
    up, made = scripted
    with open_source("scripted:cam", **FAST_BACKOFF) as source:
        assert source.read(PATIENCE_S) is not None and source.status().state is SourceState.LIVE
        up.clear()
        assert _wait_for(lambda: source.status().attempt >= 5)
        status = source.status()
        assert status.state is SourceState.RECONNECTING
        assert status.next_retry_at is not None and "refused" in status.last_error
        up.set()
        assert _wait_for(lambda: source.status().state is SourceState.LIVE)
        status = source.status()
        fresh = source.read(PATIENCE_S)
    assert (status.reconnects, status.attempt, status.next_retry_at) == (1, 0, None)
    assert fresh.sequence >= status.frames - 1
    gaps = np.diff(made[0].open_times[1:6])  # attempts 1..5 after the loss
    settings = source.settings
    for attempt, gap in enumerate(gaps, start=2):
        assert gap >= 0.9 * settings.backoff_delay(attempt)


def test_source_fails_after_max_reconnects_and_iteration_says_why(scripted):
    up, made = scripted
    with open_source("scripted:cam", max_reconnects=2, **FAST_BACKOFF) as source:
        up.clear()
        with pytest.raises(SourceError, match=r"scripted cam lost \(scripted cam stopped delivering frames\); "
                                              r"gave up after 2 reconnect attempts"):
            for _ in source:
                pass
        assert source.status().state is SourceState.FAILED
    assert source.status().state is SourceState.FAILED  # closing keeps the reason
    assert len(made[0].open_times) == 3  # the first open and two retries


def test_retry_first_open_waits_for_a_source_that_is_not_up_yet(scripted):
    up, made = scripted
    up.clear()
    with pytest.raises(SourceError, match="cannot be opened: refused"):
        open_source("scripted:cam")
    with open_source("scripted:cam", retry_first_open=True, **FAST_BACKOFF) as source:
        assert source.status().state in (SourceState.CONNECTING, SourceState.RECONNECTING)
        assert source.read(0.1) is None
        up.set()
        assert source.read(PATIENCE_S) is not None and source.status().state is SourceState.LIVE
        assert source.status().reconnects == 0


def test_close_during_a_long_backoff_is_prompt(scripted):
    up, made = scripted
    source = open_source("scripted:cam", backoff_initial_s=30.0, backoff_max_s=30.0)
    up.clear()
    assert _wait_for(lambda: source.status().state is SourceState.RECONNECTING)
    started = time.monotonic()
    source.close()
    assert time.monotonic() - started < 1.0
    status = source.status()
    assert status.state is SourceState.CLOSED and status.next_retry_at is None
    assert source.read(0) is None  # even the frame nobody read is not handed out once closed
    assert list(source) == []


# ---------------------------------------------------------------------- camera (stand-in)
@pytest.fixture
def fake_camera(tmp_path, monkeypatch):
    """Cameras whose device files are tmp_path/video{index}; returns the list of captures made."""
    made = []

    class FakeCapture:
        def __init__(self, target, backend, params=()):
            self.device = tmp_path / f"video{target}"
            self.opened, self.props, self.count = self.device.exists(), {}, 0
            made.append(self)

        def isOpened(self):  # noqa: N802 (OpenCV's name)
            return self.opened

        def read(self):
            time.sleep(0.003)
            if not (self.opened and self.device.exists()):
                return False, None
            self.count += 1
            return True, _image(self.count)

        def set(self, prop, value):
            self.props[prop] = value
            return True

        def get(self, prop):
            return 0.0

        def release(self):
            self.opened = False

    monkeypatch.setattr(capture, "CAMERA_DEVICE_PATTERN", str(tmp_path / "video{index}"))
    monkeypatch.setattr(capture.cv2, "VideoCapture", FakeCapture)
    return tmp_path, made


def test_camera_is_read_and_reconnects_after_unplugging(fake_camera):
    root, made = fake_camera
    device = root / "video3"
    device.touch()
    with open_source("3", frame_size=(320, 240), **FAST_BACKOFF) as source:
        frame = source.read(PATIENCE_S)
        assert frame.source == "camera 3"
        assert made[0].props[cv2.CAP_PROP_FRAME_WIDTH] == 320 and made[0].props[cv2.CAP_PROP_FRAME_HEIGHT] == 240
        device.unlink()  # unplugged
        assert _wait_for(lambda: source.status().attempt >= 2)
        status = source.status()
        assert status.state is SourceState.RECONNECTING
        assert "no such device" in status.last_error and "video3" in status.last_error
        device.touch()  # plugged back in
        assert _wait_for(lambda: source.status().state is SourceState.LIVE)
        assert source.read(PATIENCE_S) is not None
    assert source.status().reconnects == 1 and not any(c.opened for c in made)


# ---------------------------------------------------------------------- network stream (MJPEG over HTTP)
class MjpegServer:
    """An MJPEG stream on 127.0.0.1 that can be stopped and restarted on the same port."""

    boundary = "frame"

    def __init__(self):
        self.port, self._server, self._stopping = 0, None, threading.Event()
        self.active = 0
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/stream.mjpg"

    def start(self) -> None:
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):  # noqa: N802 (http.server's name)
                with owner._lock:
                    owner.active += 1
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", f"multipart/x-mixed-replace; boundary={owner.boundary}")
                    self.end_headers()
                    count = 0
                    while not owner._stopping.is_set():
                        jpeg = cv2.imencode(".jpg", _image(count))[1].tobytes()
                        head = f"--{owner.boundary}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n"
                        self.wfile.write(head.encode() + jpeg + b"\r\n")
                        self.wfile.flush()
                        count += 1
                        owner._stopping.wait(0.02)
                except OSError:
                    pass  # the client went away
                finally:
                    with owner._lock:
                        owner.active -= 1

        self._stopping.clear()
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def stop(self) -> None:
        if self._server is None:
            return
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._server = None
        assert _wait_for(lambda: self.active == 0, 2.0)


@pytest.fixture
def mjpeg():
    server = MjpegServer()
    server.start()
    yield server
    server.stop()


def test_stream_is_read_goes_reconnecting_when_lost_and_live_when_back(mjpeg):
    with open_source(mjpeg.url, open_timeout_s=2.0, read_timeout_s=2.0, **FAST_BACKOFF) as source:
        frame = source.read(PATIENCE_S)
        assert frame.source == f"stream {mjpeg.url!r}" and frame.image.shape == (24, 32, 3)
        assert source.status().state is SourceState.LIVE
        mjpeg.stop()
        assert _wait_for(lambda: source.status().state is SourceState.RECONNECTING)
        assert _wait_for(lambda: source.status().attempt >= 2)  # reopening fails while the server is down
        assert "cannot be opened" in source.status().last_error
        mjpeg.start()
        assert _wait_for(lambda: source.status().state is SourceState.LIVE)
        before = source.status().frames
        assert _wait_for(lambda: source.status().frames > before)
        status = source.status()
    assert status.reconnects == 1 and status.last_error_at is not None
    assert status.to_json()["state"] == "live"
