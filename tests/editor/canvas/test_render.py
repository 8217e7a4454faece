"""``trackside render`` and ``editor.canvas.render``: PNG, SVG and true-scale PDF output."""

from __future__ import annotations

import math
import re
import string
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from pixels import grass, near, pdf_pixels, rgb
from repo_paths import FIXTURES
from tracks_for_tests import LONG_NAME

from trackside.cli.main import main
from trackside.editor.canvas.painting import (
    DEFAULT_STYLE,
    LINE_SPACING,
    board_bounds,
    track_surface,
)
from trackside.editor.canvas.render import ensure_app, render
from trackside.engine.track.model import (
    Centerline,
    Label,
    Space,
    Track,
    load_track,
    save_track,
)

MM_PER_PT = 25.4 / 72


def _arc(cx: float, start: float, radii: tuple[float, float], count: int) -> list:
    """Wedges of a half turn about (cx, 0) between two radii, from ``start`` degrees."""
    r0, r1 = radii
    out = []
    for i in range(count):
        a = math.radians(start + 180 * i / count)
        b = math.radians(start + 180 * (i + 1) / count)
        out.append(
            [
                (cx + r0 * math.cos(a), r0 * math.sin(a)),
                (cx + r1 * math.cos(a), r1 * math.sin(a)),
                (cx + r1 * math.cos(b), r1 * math.sin(b)),
                (cx + r0 * math.cos(b), r0 * math.sin(b)),
            ]
        )
    return out


def oval_track(
    lanes: int = 2,
    length: float = 45.0,
    width: float = 30.0,
    straight: int = 10,
    inner_radius: float = 120.0,
) -> Track:
    """A closed stadium loop, clockwise on screen (y down): rectangles on the
    straights, wedges in the curves, seam two spaces into the top straight."""
    s = straight * length
    outer = inner_radius + lanes * width
    count = max(2, round(math.pi * (inner_radius + lanes * width / 2) / length))
    spaces = []
    for k in range(lanes):
        r0, r1 = inner_radius + k * width, inner_radius + (k + 1) * width
        top = [
            [(j * length, -r1), ((j + 1) * length, -r1), ((j + 1) * length, -r0), (j * length, -r0)]
            for j in range(straight)
        ]
        bottom = [
            [
                (s - j * length, r1),
                (s - (j + 1) * length, r1),
                (s - (j + 1) * length, r0),
                (s - j * length, r0),
            ]
            for j in range(straight)
        ]
        ring = (
            top[2:]
            + _arc(s, -90, (r0, r1), count)
            + bottom
            + _arc(0, 90, (r0, r1), count)
            + top[:2]
        )
        for n, corners in enumerate(ring, 1):
            spaces.append(
                Space(
                    id=f"{string.ascii_lowercase[k]}{n}",
                    lane=k,
                    corners=[(round(x, 3), round(y, 3)) for x, y in corners],
                )
            )
    rc = inner_radius + lanes * width / 2
    pts = [(2 * length, -rc), (s, -rc)]
    pts += [
        (s + rc * math.cos(math.radians(a)), rc * math.sin(math.radians(a))) for a in range(-89, 90)
    ]
    pts += [(s, rc), (0, rc)]
    pts += [
        (rc * math.cos(math.radians(a)), rc * math.sin(math.radians(a))) for a in range(91, 270)
    ]
    pts += [(0, -rc)]

    def across(x: float, side: int):
        y0, y1 = side * (inner_radius - 3), side * (outer + 3)
        return ((x, y1), (x, y0)) if side < 0 else ((x, y0), (x, y1))

    grid = [f"{lane}{j}" for j in (3, 2, 1) for lane in "ab"]
    return Track(
        name="Test Oval",
        centerline=Centerline(True, [(round(x, 3), round(y, 3)) for x, y in pts]),
        spaces=spaces,
        start_grid=grid,
        betting_lines=[across(7 * length, -1), across(s - 3 * length, 1), across(3 * length, 1)],
        finish_line=across(length, -1),
        labels=[Label(text="Test Oval", at=(s / 2, 0.0), size=20)],
    )


@pytest.fixture
def oval_file(tmp_path: Path) -> Path:
    path = tmp_path / "oval.yaml"
    save_track(oval_track(), path)
    return path


@pytest.fixture
def small_file(tmp_path: Path) -> Path:
    """A board that fits on one A4 page."""
    path = tmp_path / "small.yaml"
    save_track(oval_track(length=20, width=12, straight=6, inner_radius=30), path)
    return path


def board_mm(path: Path, title: bool = True) -> tuple[float, float]:
    """Width and height of the board drawing (with its name plate) plus margin."""
    from trackside.editor.canvas.painting import board_bounds
    from trackside.editor.canvas.render import BOARD_MARGIN
    from trackside.engine.track.model import load_track

    x0, y0, x1, y1 = board_bounds(load_track(path), title=title)
    return x1 - x0 + 2 * BOARD_MARGIN, y1 - y0 + 2 * BOARD_MARGIN


def pdf_pages(path: Path) -> list[tuple[float, float]]:
    """(width, height) in points of every page of a PDF, from its page objects."""
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    pages = []
    for obj in re.finditer(
        rb"<<(?:(?!>>).)*?/Type\s*/Page(?![a-zA-Z])(?:(?!endobj).)*?endobj", data, re.S
    ):
        box = re.search(rb"/MediaBox\s*\[\s*([-\d.\s]+)\]", obj.group(0))
        assert box, "page without a MediaBox"
        x0, y0, x1, y1 = (float(v) for v in box.group(1).split())
        pages.append((x1 - x0, y1 - y0))
    return pages


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["render", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


# -- pictures -------------------------------------------------------------------


def test_png_has_the_pixel_size_of_the_board_at_the_dpi(qapp, oval_file, tmp_path, capsys):
    from PySide6.QtGui import QImage

    sizes = {}
    for dpi in (40, 80):
        out = tmp_path / f"oval{dpi}.png"
        code, stdout, err = run_cli(capsys, oval_file, "-o", out, "--dpi", dpi)
        assert code == 0, err
        assert f"wrote {out}" in stdout
        image = QImage(str(out))
        assert not image.isNull()
        w_mm, h_mm = board_mm(oval_file)
        assert abs(image.width() - w_mm * dpi / 25.4) <= 1.5
        assert abs(image.height() - h_mm * dpi / 25.4) <= 1.5
        assert abs(image.dotsPerMeterX() - dpi / 0.0254) <= 1
        sizes[dpi] = (image.width(), image.height())
    assert abs(sizes[80][0] - 2 * sizes[40][0]) <= 2
    # The oval is 450 + 2 * 180 mm long, so the picture is at least that at 1:1.
    assert sizes[40][0] >= 810 * 40 / 25.4


def test_png_draws_spaces_where_the_track_puts_them(qapp, oval_file, tmp_path, capsys):
    """A space's centre is tarmac grey; the infield (no space) is grass green."""
    from PySide6.QtGui import QColor, QImage

    from trackside.editor.canvas.painting import DEFAULT_STYLE, board_bounds
    from trackside.editor.canvas.render import BOARD_MARGIN
    from trackside.engine.track.model import load_track

    out = tmp_path / "oval.png"
    assert run_cli(capsys, oval_file, "-o", out, "--dpi", 50, "--no-ids")[0] == 0
    image = QImage(str(out))
    x0, y0, _x1, _y1 = board_bounds(load_track(oval_file), title=True)
    w_mm, h_mm = board_mm(oval_file)
    scale = image.width() / w_mm

    def pixel(x: float, y: float) -> QColor:
        left = x0 - BOARD_MARGIN - (w_mm - (_x1 - x0 + 2 * BOARD_MARGIN)) / 2
        top = y0 - BOARD_MARGIN - (h_mm - (_y1 - y0 + 2 * BOARD_MARGIN)) / 2
        return image.pixelColor(int((x - left) * scale), int((y - top) * scale))

    def close(a: QColor, b: QColor) -> bool:
        return (
            max(abs(a.red() - b.red()), abs(a.green() - b.green()), abs(a.blue() - b.blue())) < 12
        )

    # Space a10 (lane 0, top straight, x 405..450, y -150..-120): its middle is lane 0's shade.
    assert close(pixel(427.5, -135), QColor(DEFAULT_STYLE.lane_fills[0]))
    # Lane 1 beside it alternates in shade.
    assert close(pixel(427.5, -165), QColor(DEFAULT_STYLE.lane_fills[1]))
    infield = pixel(225, -60)
    assert infield.green() > infield.red() and infield.green() > infield.blue()


def test_the_name_plate_sits_below_the_board(qapp, oval_file, tmp_path, capsys):
    from PySide6.QtGui import QImage

    from trackside.editor.canvas.painting import DEFAULT_STYLE

    sizes = {}
    for flag in ([], ["--no-title"]):
        out = tmp_path / f"oval{len(flag)}.png"
        assert run_cli(capsys, oval_file, "-o", out, "--dpi", 50, *flag)[0] == 0
        image = QImage(str(out))
        sizes[bool(flag)] = (image.width(), image.height())
    assert sizes[False][0] == sizes[True][0]  # the oval is wider than its name plate
    plate = (sizes[False][1] - sizes[True][1]) * 25.4 / 50
    assert plate > DEFAULT_STYLE.title_gap + DEFAULT_STYLE.title_height
    _w_mm, h_mm = board_mm(oval_file, title=False)
    assert abs(sizes[True][1] - h_mm * 50 / 25.4) <= 1.5


def svg_texts(path: Path) -> list[str]:
    """The text of every <text> element of the SVG at ``path``."""
    root = ET.parse(path).getroot()
    return [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]


@pytest.mark.parametrize("name", ["harbour-loop", "quarry-hairpin", "estuary-sweep"])
def test_a_bundled_circuit_s_plate_names_its_author(qapp, tmp_path, capsys, name):
    """The bundled circuits' plates are as they were: their author and the scale."""
    out = tmp_path / "board.svg"
    assert run_cli(capsys, name, "-o", out)[0] == 0
    assert "by Trackside  ·  true scale 1:1" in svg_texts(out)


def test_a_circuit_with_no_author_claims_none_on_its_plate(qapp, oval_file, tmp_path, capsys):
    """No author (a designer's copy of a bundled circuit has none): the plate gives the
    name and the scale, and says nothing of whose circuit it is (it said "a Trackside
    circuit")."""
    track = load_track(oval_file)
    track.author = None
    save_track(track, oval_file)
    out = tmp_path / "board.svg"
    assert run_cli(capsys, oval_file, "-o", out)[0] == 0
    texts = svg_texts(out)
    assert track.name in texts and "true scale 1:1" in texts
    assert not any("Trackside" in t or t.startswith("by ") for t in texts), texts


def test_svg_parses_and_is_sized_in_mm(qapp, oval_file, tmp_path, capsys):
    out = tmp_path / "oval.svg"
    code, _out, err = run_cli(capsys, oval_file, "-o", out)
    assert code == 0, err
    root = ET.parse(out).getroot()
    assert root.tag.endswith("svg")
    width, height = root.get("width"), root.get("height")
    assert width.endswith("mm") and height.endswith("mm")
    w_mm, h_mm = board_mm(oval_file)
    assert abs(float(width[:-2]) - w_mm) <= 0.2
    assert abs(float(height[:-2]) - h_mm) <= 0.2
    view = [float(v) for v in root.get("viewBox").split()]
    assert view[2:] == pytest.approx([float(width[:-2]), float(height[:-2])])
    assert root.find("{http://www.w3.org/2000/svg}title").text == "Test Oval"


# -- PDF at true scale ------------------------------------------------------------


def test_pdf_is_one_page_of_the_board_size(qapp, oval_file, tmp_path, capsys):
    out = tmp_path / "oval.pdf"
    code, _stdout, err = run_cli(capsys, oval_file, "-o", out)
    assert code == 0, err
    pages = pdf_pages(out)
    assert len(pages) == 1
    w_mm, h_mm = board_mm(oval_file)
    # Page sizes are whole points; the board is never cut, so round up, by less than 1 pt.
    assert 0 <= pages[0][0] - w_mm / MM_PER_PT < 1.0 + 1e-6
    assert 0 <= pages[0][1] - h_mm / MM_PER_PT < 1.0 + 1e-6


def test_pdf_on_a4_is_tiled_with_a4_pages(qapp, oval_file, tmp_path, capsys):
    out = tmp_path / "oval-a4.pdf"
    code, stdout, err = run_cli(capsys, oval_file, "-o", out, "--paper", "a4")
    assert code == 0, err
    pages = pdf_pages(out)
    # The board is about 850 x 410 mm. Portrait A4 leaves 190 x 271 mm per page
    # with 10 mm of overlap: 5 columns x 2 rows. Landscape (277 x 184) would need 4 x 3.
    assert len(pages) == 10
    assert "10 pages" in stdout
    for w, h in pages:
        assert (round(w), round(h)) == (595, 842)  # A4 portrait in points


def test_pdf_small_board_on_letter_is_one_page(qapp, small_file, tmp_path, capsys):
    out = tmp_path / "small.pdf"
    assert run_cli(capsys, small_file, "-o", out, "--paper", "letter")[0] == 0
    pages = pdf_pages(out)
    assert len(pages) == 1
    w, h = pages[0]
    assert {round(w), round(h)} == {612, 792}  # US letter, either way round


def test_tiling_picks_the_orientation_with_fewer_pages():
    from trackside.editor.canvas.render import plan_tiles

    wide = plan_tiles(250, 180, "a4")  # fits one landscape page, two portrait ones
    assert (wide.landscape, wide.pages) == (True, 1)
    tall = plan_tiles(180, 250, "a4")
    assert (tall.landscape, tall.pages) == (False, 1)
    # Portrait A3 cells are 277 x 394 mm: 4 x 2 pages; landscape (400 x 271) needs 3 x 3.
    big = plan_tiles(1000, 700, "a3")
    assert (big.landscape, big.pages, big.page_w, big.page_h) == (False, 8, 297.0, 420.0)
    # Every part of the board is on some page: columns x step cover the width.
    for t, (bw, bh) in ((wide, (250, 180)), (tall, (180, 250)), (big, (1000, 700))):
        assert t.cols * (t.cell_w - 10) + 10 >= bw
        assert t.rows * (t.cell_h - 10) + 10 >= bh


def test_no_grass_tiles_the_track_alone_on_white_pages(qapp, oval_file, tmp_path, capsys):
    """``--no-grass`` leaves the green out of every tiled page; the pages, their size,
    the tarmac, the lines and the cut marks and labels in the margins stay as they were."""
    pages = {}
    for flags in ([], ["--no-grass"]):
        out = tmp_path / f"oval{len(flags)}.pdf"
        code, stdout, err = run_cli(capsys, oval_file, "-o", out, "--paper", "a4", *flags)
        assert code == 0, err
        assert "10 pages of 210.0 x 297.0 mm" in stdout
        pages[bool(flags)] = (pdf_pages(out), pdf_pixels(out))
    (boxes, green), (bare_boxes, bare) = pages[False], pages[True]
    assert bare_boxes == boxes  # the same pages at the same true scale
    assert all(grass(page) > 0.2 * page[..., 0].size for page in green)
    assert [grass(page) for page in bare] == [0] * len(bare)
    inside = (slice(30, -45), slice(30, -30))  # px at 36 per inch: the cell within the marks
    for colour in (*DEFAULT_STYLE.lane_fills, DEFAULT_STYLE.betting):
        drawn = [near(page, colour)[inside] for page in green]
        assert sum(np.count_nonzero(mask) for mask in drawn) > 100
        assert all(
            np.array_equal(near(page, colour)[inside], mask)
            for page, mask in zip(bare, drawn, strict=True)
        )
    for with_grass, without in zip(green, bare, strict=True):
        footer = 8  # the strip under each page's board: its label, scale bar and map
        assert np.array_equal(with_grass[-footer:], without[-footer:])
        assert (without[:, :3] > 250).all()  # white paper beside the cells, not grass


def test_no_grass_prints_the_label_and_name_plate_in_dark_ink(qapp, oval_file, tmp_path, capsys):
    """The letters of the infield's label and of the name plate, white on the grass, are
    dark on white paper, where white letters would not show."""
    from PySide6.QtGui import QImage

    pictures = []
    for flags in ([], ["--no-grass"]):
        out = tmp_path / f"oval{len(flags)}.png"
        assert run_cli(capsys, oval_file, "-o", out, "--dpi", 50, *flags)[0] == 0
        pictures.append(rgb(QImage(str(out))))
    green, bare = pictures
    assert green.shape == bare.shape and grass(bare) == 0
    height, width = green.shape[:2]
    for part in (
        (slice(height // 3, height // 2), slice(width // 3, 2 * width // 3)),  # the label
        (slice(-height // 8, None), slice(None)),  # the name plate
    ):
        letters = near(green[part], DEFAULT_STYLE.label_text)
        assert np.count_nonzero(letters) > 200
        dark = near(bare[part], DEFAULT_STYLE.label_halo)
        assert np.count_nonzero(dark & letters) > 0.9 * np.count_nonzero(letters)


def test_render_api_returns_what_it_wrote(qapp, tmp_path):
    from trackside.editor.canvas.render import render

    result = render(oval_track(3), tmp_path / "three.pdf", paper="a3")
    assert result.format == "pdf"
    assert result.pages == len(pdf_pages(tmp_path / "three.pdf")) == result.tiling.pages
    assert result.page_size_mm in ((297.0, 420.0), (420.0, 297.0))


# -- bad input: one line, an exit code, no traceback -------------------------------


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_unknown_suffix_is_exit_2(oval_file, tmp_path, capsys):
    code, _out, err = run_cli(capsys, oval_file, "-o", tmp_path / "oval.jpg")
    assert code == 2
    assert ".jpg" in one_line(err) and ".png" in err
    assert not (tmp_path / "oval.jpg").exists()


def test_unreadable_track_is_exit_2(tmp_path, capsys):
    missing = tmp_path / "missing.yaml"
    code, _out, err = run_cli(capsys, missing, "-o", tmp_path / "x.png")
    assert code == 2
    assert str(missing) in one_line(err)
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: [unclosed\n", encoding="utf-8")
    code, _out, err = run_cli(capsys, broken, "-o", tmp_path / "x.png")
    assert code == 2
    assert str(broken) in one_line(err)


def test_unwritable_output_is_exit_2(qapp, oval_file, tmp_path, capsys):
    code, _out, err = run_cli(capsys, oval_file, "-o", tmp_path / "no" / "such" / "x.png")
    assert code == 2
    assert "x.png" in one_line(err)
    folder = tmp_path / "taken.pdf"
    folder.mkdir()
    code, _out, err = run_cli(capsys, oval_file, "-o", folder)
    assert code == 2
    assert "folder, not a file" in one_line(err)
    assert list(folder.iterdir()) == []
    code, _out, err = run_cli(capsys, oval_file, "-o", tmp_path / ("x" * 300 + ".png"))
    assert code == 2 and "File name too long" in one_line(err)


def test_schema_invalid_track_is_exit_1(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    data = oval_track().to_yaml().replace("format: trackside-track/1", "format: trackside-track/9")
    bad.write_text(data, encoding="utf-8")
    code, _out, err = run_cli(capsys, bad, "-o", tmp_path / "x.png")
    assert code == 1
    assert f"{bad}:1:" in one_line(err)
    assert not (tmp_path / "x.png").exists()


def test_paper_is_for_pdf_only(oval_file, tmp_path, capsys):
    code, _out, err = run_cli(capsys, oval_file, "-o", tmp_path / "x.png", "--paper", "a4")
    assert code == 2
    assert "PDF" in one_line(err)


def test_a_failed_render_leaves_the_old_file(qapp, oval_file, tmp_path, capsys):
    out = tmp_path / "oval.png"
    out.write_bytes(b"old")
    code, _out, err = run_cli(capsys, oval_file, "-o", out, "--dpi", 2400)
    assert code == 2  # 2400 dpi of an 85 cm board is far too many pixels
    assert "dpi" in one_line(err)
    assert out.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_track_with_validation_errors_still_renders_with_a_warning(qapp, tmp_path, capsys):
    track = oval_track()
    track.space("b5").id = "a5"  # a duplicate id: schema-valid, but a validation error
    path = tmp_path / "dup.yaml"
    save_track(track, path)
    out = tmp_path / "dup.svg"
    code, stdout, err = run_cli(capsys, path, "-o", out)
    assert code == 0
    assert out.exists() and f"wrote {out}" in stdout
    assert "warning" in err and "duplicate-id" in err and "Traceback" not in err


# -- painting robustness ---------------------------------------------------------


def test_paint_space_survives_hostile_polygons(qapp):
    """The editor paints whatever a designer drags: no corner list may raise, each
    leaves the painter as it found it, and what has an area is filled."""
    from PySide6.QtGui import QColor, QImage, QPainter

    from trackside.editor.canvas.painting import DEFAULT_STYLE, paint_line, paint_space

    white = QColor("white").rgb()

    def painted(paint) -> QImage:
        image = QImage(200, 200, QImage.Format.Format_ARGB32)
        image.fill(white)
        painter = QPainter(image)
        before = (painter.pen(), painter.brush(), painter.transform(), painter.font())
        try:
            paint(painter)
            assert (painter.pen(), painter.brush(), painter.transform(), painter.font()) == before
        finally:
            painter.end()
        return image

    def space(n: int, corners) -> QImage:
        shape = Space(id=f"s{n}", lane=n, corners=corners)
        return painted(lambda p: paint_space(p, shape, grid_slot=1, show_id=True))

    def blank(image: QImage) -> bool:
        return all(image.pixel(x, y) == white for x in range(200) for y in range(200))

    bow_tie = space(0, [(0, 0), (10, 10), (10, 0), (0, 10)])
    assert bow_tie.pixel(1, 5) == DEFAULT_STYLE.lane_colour(0).rgb()  # inside a wing
    assert blank(space(1, [(5, 5), (5, 5), (5, 5)]))  # one point: nothing to fill
    space(2, [(0, 0), (10, 0), (20, 0)])  # no area
    huge = space(3, [(0, 0), (1e6, 0), (1e6, 1e6), (0, 1e6)])
    lane = DEFAULT_STYLE.lane_colour(3).rgb()
    assert huge.pixel(199, 199) == huge.pixel(100, 100) == huge.pixel(50, 150) == lane
    assert blank(space(4, [(0, 0), (0.01, 0), (0.01, 0.01), (0, 0.01)]))  # under a pixel
    for index in (0, 3):  # a betting line and the finish, of no length
        assert blank(painted(lambda p, index=index: paint_line(p, ((0, 0), (0, 0)), index)))


def test_painting_a_long_session_does_not_kill_python(tmp_path):
    """PySide6 6.12 on Python 3.11 loses a reference to None on every void Qt call
    and aborts after a few thousand; that release is excluded from the supported ranges."""
    import subprocess
    import sys

    code = (
        "import os; os.environ['QT_QPA_PLATFORM'] = 'offscreen'\n"
        "from trackside.editor.canvas.painting import paint_space\n"
        "from trackside.editor.canvas.render import ensure_app\n"
        "from trackside.engine.track.model import Space\n"
        "from PySide6.QtGui import QImage, QPainter\n"
        "ensure_app()\n"
        "image = QImage(50, 50, QImage.Format.Format_ARGB32)\n"
        "painter = QPainter(image)\n"
        "space = Space('a1', 0, [(0, 0), (40, 0), (40, 30), (0, 30)])\n"
        "for _ in range(3000):\n"
        "    paint_space(painter, space, grid_slot=1, show_id=True)\n"
        "painter.end()\n"
        "print('done')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "done"


def test_render_runs_headless_without_a_platform_chosen(oval_file, tmp_path):
    """No display and no QT_QPA_PLATFORM: render picks offscreen instead of aborting."""
    import os
    import subprocess
    import sys

    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    out = tmp_path / "headless.png"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "trackside",
            "render",
            str(oval_file),
            "-o",
            str(out),
            "--dpi",
            "20",
        ],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert out.read_bytes().startswith(b"\x89PNG")


def test_a_board_smaller_than_the_seal_between_spaces_still_renders(tmp_path):
    ensure_app()
    track = load_track(FIXTURES / "fuzz" / "tracks" / "tiny-board.yaml")  # mm scaled by 1e-4
    bounds = board_bounds(track, DEFAULT_STYLE, track_surface(track), title=True)
    assert all(math.isfinite(v) for v in bounds)
    done = render(track, tmp_path / "tiny.png")
    assert done.path.read_bytes().startswith(b"\x89PNG")


# -- a long name --------------------------------------------------------------------


@pytest.fixture
def long_named(tmp_path: Path) -> tuple[Path, Path]:
    """The oval twice: with a short name, and with a 200-character one and author."""
    short, long = tmp_path / "short.yaml", tmp_path / "long.yaml"
    save_track(oval_track(), short)
    track = oval_track()
    track.name = LONG_NAME
    track.author = "A. " + "Longname-Whitfield " * 10
    save_track(track, long)
    return short, long


def test_a_long_name_does_not_make_the_board_wider(qapp, long_named, tmp_path, capsys):
    """Every format: the name is wrapped and cut short to the board's width."""
    short, long = long_named
    for suffix in (".png", ".svg", ".pdf"):
        widths = []
        for source in (short, long):
            out = tmp_path / f"{source.stem}{suffix}"
            dpi = ["--dpi", "50"] if suffix == ".png" else []
            assert run_cli(capsys, source, "-o", out, *dpi)[0] == 0
            if suffix == ".png":
                from PySide6.QtGui import QImage

                widths.append(QImage(str(out)).width() * 25.4 / 50)
            elif suffix == ".svg":
                widths.append(float(ET.parse(out).getroot().get("width")[:-2]))
            else:
                widths.append(pdf_pages(out)[0][0] * MM_PER_PT)
        assert widths[1] == pytest.approx(widths[0], abs=0.6), suffix
    w_mm, h_mm = board_mm(long)
    short_w, short_h = board_mm(short)
    assert w_mm == pytest.approx(short_w)
    assert h_mm < short_h + 2 * LINE_SPACING * DEFAULT_STYLE.title_height  # two lines at most


def test_a_long_name_tiles_on_as_many_pages(qapp, long_named, tmp_path, capsys):
    short, long = long_named
    counts = []
    for source in (short, long):
        out = tmp_path / f"{source.stem}-a4.pdf"
        assert run_cli(capsys, source, "-o", out, "--paper", "a4")[0] == 0
        counts.append(len(pdf_pages(out)))
    assert counts[1] == counts[0] == 10


def test_a_long_name_is_wrapped_and_cut_short_with_an_ellipsis(qapp):
    from trackside.editor.canvas.painting import text_width, wrap_text

    room = 300.0
    lines = wrap_text(LONG_NAME, 14.0, room, bold=True, lines=2)
    assert len(lines) == 2 and lines[-1].endswith("…")
    assert all(text_width(line, 14.0, bold=True) <= room for line in lines)
    assert lines[0].startswith("Grand Prix de la Côte") and not lines[0].endswith(" ")
    unbroken = "X" * 200  # no space to break at: broken inside the word
    assert all(text_width(line, 14.0) <= room for line in wrap_text(unbroken, 14.0, room, lines=3))
    assert wrap_text("Harbour Loop", 14.0, room) == ["Harbour Loop"]  # fits: as it is
