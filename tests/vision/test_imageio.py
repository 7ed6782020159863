"""Reading and writing image files: every bad file is an ImageError that names it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision.errors import ImageError
from tableref.vision.imageio import decode_image, read_image, write_image

SEED = 20240611
#: Mean absolute difference (0-255) allowed after a JPEG round trip.
JPEG_MEAN_ERROR = 8


def _image(height: int = 48, width: int = 64, seed: int = SEED) -> np.ndarray:
    """A smooth BGR test image with a little noise (so JPEG data is long enough to cut meaningfully)."""
    rng = np.random.default_rng(seed)
    coarse = rng.integers(0, 256, (height // 8, width // 8, 3), dtype=np.uint8)
    smooth = cv2.resize(coarse, (width, height), interpolation=cv2.INTER_LINEAR).astype(int)
    return np.clip(smooth + rng.integers(-6, 7, smooth.shape), 0, 255).astype(np.uint8)


def _encode(ext: str, image: np.ndarray | None = None, params: tuple[int, ...] = ()) -> bytes:
    ok, data = cv2.imencode(ext, _image() if image is None else image, list(params))
    assert ok
    return data.tobytes()


def _flip_byte(data: bytes, index: int) -> bytes:
    return data[:index] + bytes([data[index] ^ 0x55]) + data[index + 1:]


PNG, JPEG, BMP = _encode(".png"), _encode(".jpg"), _encode(".bmp")
PROGRESSIVE_JPEG = _encode(".jpg", params=(cv2.IMWRITE_JPEG_PROGRESSIVE, 1))


@pytest.mark.parametrize(("data", "max_pixels", "message"), [
    (b"", 10**6, "is empty (0 bytes)"),
    (b"hello, this is text", 10**6, "not an image: unrecognised format"),
    (JPEG[: len(JPEG) // 2], 10**6, "end-of-image marker (truncated"),
    (JPEG[:-2], 10**6, "end-of-image marker (truncated"),
    (JPEG[:3], 10**6, "end-of-image marker (truncated"),
    (PROGRESSIVE_JPEG[: len(PROGRESSIVE_JPEG) * 2 // 3], 10**6, "end-of-image marker (truncated"),
    (PNG[: len(PNG) // 2], 10**6, "truncated"),
    (PNG[:-12], 10**6, "before its IEND chunk"),
    (_flip_byte(PNG, len(PNG) // 2), 10**6, "bad checksum"),
    (BMP[: len(BMP) // 2], 10**6, "header says"),
    (PNG, 64 * 48 - 1, "64x48 = 3072 pixels, more than the limit of 3071"),
    (JPEG, 100, "more than the limit"),
    (BMP, 100, "more than the limit"),
], ids=["empty", "text", "jpeg-half", "jpeg-no-eoi", "jpeg-header-only", "progressive-jpeg-cut", "png-half",
        "png-no-iend", "png-bad-crc", "bmp-half", "png-too-big", "jpeg-too-big", "bmp-too-big"])
def test_bad_data_is_an_image_error(data, max_pixels, message):
    with pytest.raises(ImageError) as info:
        decode_image(data, name="upload 'x'", max_pixels=max_pixels)
    assert message in str(info.value)
    assert str(info.value).startswith("upload 'x'")


@pytest.mark.parametrize(("data", "exact"), [
    (PNG, True), (BMP, True), (JPEG, False), (PROGRESSIVE_JPEG, False),
    (JPEG + b"\x00" * 16 + b"camera trailer", False),  # bytes after EOI are allowed
], ids=["png", "bmp", "jpeg", "progressive-jpeg", "jpeg-with-trailer"])
def test_good_data_decodes_to_bgr(data, exact):
    image = decode_image(data)
    assert image.dtype == np.uint8 and image.shape == (48, 64, 3)
    difference = np.abs(image.astype(int) - _image().astype(int))
    assert difference.max() == 0 if exact else difference.mean() < JPEG_MEAN_ERROR


@pytest.mark.parametrize("kind", [bytes, bytearray, memoryview])
def test_decode_accepts_byte_like_data(kind):
    assert decode_image(kind(PNG)).shape == (48, 64, 3)


def test_decode_refuses_a_string():
    with pytest.raises(ImageError, match="expected bytes, got str"):
        decode_image("not bytes")  # type: ignore[arg-type]


def test_grey_and_alpha_images_come_back_as_three_channels():
    grey = _encode(".png", _image()[:, :, 0])
    alpha = _encode(".png", np.dstack([_image(), np.full((48, 64), 128, np.uint8)]))
    assert decode_image(grey).shape == (48, 64, 3)
    assert np.array_equal(decode_image(alpha), _image())


@pytest.mark.parametrize(("make", "message"), [
    (lambda d: d / "missing.png", "does not exist"),
    (lambda d: d, "is a folder"),
    (lambda d: _write(d / "empty.png", b""), "is empty (0 bytes)"),
    (lambda d: _write(d / "notes.png", b"just some text"), "not an image"),
    (lambda d: _write(d / "cut.jpg", JPEG[: len(JPEG) * 3 // 4]), "truncated"),
    (lambda d: _write(d / "cut.png", PNG[:100]), "truncated"),
], ids=["missing", "folder", "empty", "not-an-image", "truncated-jpeg", "truncated-png"])
def test_read_image_names_the_file(tmp_path, make, message):
    path = make(tmp_path)
    with pytest.raises(ImageError) as info:
        read_image(path)
    assert message in str(info.value) and str(path) in str(info.value)


def _write(path, data: bytes):
    path.write_bytes(data)
    return path


def test_read_image_refuses_a_file_over_the_byte_limit(tmp_path):
    path = _write(tmp_path / "a.png", PNG)
    with pytest.raises(ImageError, match="more than the limit of 10"):
        read_image(path, max_bytes=10)


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".jpeg", ".bmp"])
def test_read_image_reads_a_good_file(tmp_path, suffix):
    path = tmp_path / f"a{suffix}"
    assert cv2.imwrite(str(path), _image())
    assert read_image(path).shape == (48, 64, 3)


@pytest.mark.parametrize(("name", "image", "message"), [
    ("a.gif", _image(), "must end in one of .png, .jpg, .jpeg"),
    ("a.png", _image().astype(np.float32), "dtype uint8"),
    ("a.png", _image()[:, :, 0], "shape (H, W, 3)"),
    ("no-such-folder/a.png", _image(), "cannot write"),
], ids=["bad-suffix", "float", "grey", "missing-folder"])
def test_write_image_errors(tmp_path, name, image, message):
    with pytest.raises(ImageError) as info:
        write_image(tmp_path / name, image)
    assert message in str(info.value)
    assert not list(tmp_path.glob("*.partial"))


@pytest.mark.parametrize(("suffix", "exact"), [(".png", True), (".jpg", False)])
def test_write_then_read_round_trips(tmp_path, suffix, exact):
    path = write_image(tmp_path / f"shot{suffix}", _image())
    back = read_image(path)
    difference = np.abs(back.astype(int) - _image().astype(int))
    assert difference.max() == 0 if exact else difference.mean() < JPEG_MEAN_ERROR
    assert [p.name for p in tmp_path.iterdir()] == [f"shot{suffix}"]
