"""A PDF page's letters as PdfPig makes them, and the two texts the framework builds from them.

The framework reads a PDF with PdfPig twice. Get's transformer appends each page's ``Page.Text``,
which concatenates the page's letters in the order the content stream shows them and inserts
nothing: no line break, and no space between two strings the PDF draws separately unless the PDF
draws a space glyph itself (PdfPig v0.1.16, ``Page.GetText``). Indexing joins the page's
``GetWords()`` with spaces; PdfPig's default word extractor sorts the letters top to bottom, left to
right, and ends a word at a space glyph, a gap, a new line, or a change of font size or direction
(``DefaultWordExtractor``).

agentkit interprets the content stream itself with pypdf's parser and pypdf's font decoding: one
letter for every glyph a text-showing operator (``Tj``, ``TJ``, ``'``, ``"``) draws, form XObjects
drawn where ``Do`` invokes them, ``TJ``'s numbers moving the text position and showing nothing.
Where it departs from PdfPig: a glyph's tight box is estimated from the font's cap height (PdfPig
reads each glyph's outline box), vertical writing is read as horizontal, and a combining diacritic
stays a letter of its own (PdfPig merges it into the letter before it; the text is the same).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator, NamedTuple

from ._errors import UnreadableDocument

_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_MAX_FORM_DEPTH = 12  # forms drawing forms: deeper nesting (or a form that draws itself) is refused


class Letter(NamedTuple):
    """One glyph drawn on a page, as PdfPig's ``Letter``: its text and where its baseline starts."""

    value: str
    x: float  # start of the baseline, PDF user space (origin bottom-left)
    y: float
    width: float  # the glyph's advance along the baseline
    height: float  # the glyph's height above the baseline (estimated from the font's cap height)
    font: str
    size: float  # the size set by Tf
    orientation: int  # 0 horizontal, 1 upside down, 2 rotated 90°, 3 rotated 270°, 4 other


_new_letter = tuple.__new__  # builds a Letter from its fields without the Python-level __new__ per letter


def _mult(m: tuple, n: tuple) -> tuple:
    """m × n for PDF's row-vector matrices [a b 0; c d 0; e f 1]."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _numbers(operands, count: int) -> tuple[float, ...] | None:
    try:
        values = tuple(float(value) for value in operands[:count])
    except (TypeError, ValueError):
        return None
    return values if len(values) == count else None


def _orientation(a: float, b: float) -> int:
    if abs(b) < 1e-9:
        return 0 if a > 0 else 1
    if abs(a) < 1e-9:
        return 2 if b > 0 else 3
    return 4


class _Font:
    """A font resource decoded with pypdf: each shown string's letters with their advance widths."""

    def __init__(self, resource) -> None:
        # A private module, on purpose: pypdf 7.1 has no public API for a font's glyph widths, encoding and
        # ToUnicode map (its own text extraction uses this Font), and its public extract_text(visitor_text=...)
        # hands over whole decoded strings without a glyph's width, so no letter's position could be had. The
        # alternative is a font decoder of agentkit's own (standard-14 metrics, /W arrays, CMaps): more code.
        from pypdf.generic._font import Font

        self.font = Font.from_font_resource(resource)
        self.name = self.font.name
        self.cap_height = (self.font.font_descriptor.cap_height or 700.0) / 1000
        # Type 3 glyphs are measured in glyph space, scaled by the font's /FontMatrix; the others in 1/1000 em.
        scale = 0.001
        if resource.get("/Subtype") == "/Type3" and "/FontMatrix" in resource:
            try:
                scale = float(resource["/FontMatrix"][0])
            except (TypeError, ValueError, IndexError):
                pass
        self.scale = scale
        self._widths: dict[str, float] = {}
        # A simple font whose every code maps to one character decodes byte by byte: each byte's glyph is
        # worked out once, the first time the document shows it.
        encoding = self.font.encoding
        by_byte = isinstance(encoding, dict) and all(len(char) == 1 for char in encoding.values())
        self._byte_glyphs: dict[int, tuple[str, float, bool]] | None = {} if by_byte else None

    def glyphs(self, data: bytes) -> list[tuple[str, float, bool]]:
        """The string's glyphs: (unicode, advance in text space per unit of font size, is code 32 in one byte)."""
        table = self._byte_glyphs
        if table is None:
            return self._decode(data)
        try:
            return [table[byte] for byte in data]
        except KeyError:
            for byte in set(data).difference(table):
                table[byte] = self._decode(bytes((byte,)))[0]
            return [table[byte] for byte in data]

    def _decode(self, data: bytes) -> list[tuple[str, float, bool]]:
        font = self.font
        if isinstance(font.encoding, str):
            try:
                decoded = data.decode(font.encoding, "surrogatepass")
            except UnicodeDecodeError:
                decoded = data.decode(font.encoding, "replace")
            raw = decoded
            single = len(decoded) == len(data)
        else:
            decoded = "".join(font.encoding.get(byte, chr(byte)) for byte in data)
            raw = "".join(map(chr, data))
            single = True
        if len(decoded) != len(raw):  # an encoding entry of more than one character: one glyph per byte
            decoded = [font.encoding.get(byte, chr(byte)) for byte in data]
        out = []
        for char, code in zip(decoded, raw):
            width = self._widths.get(code)
            if width is None:
                width = font.space_width if code == font.space_char else font.get_text_width(code)
                self._widths[code] = width = float(width or 0.0) * self.scale
            out.append((font.character_map.get(char, char), width, single and code == " "))
        return out


@dataclass
class _State:
    ctm: tuple = _IDENTITY
    font: _Font | None = None
    font_name: str = ""
    size: float = 0.0
    char_spacing: float = 0.0
    word_spacing: float = 0.0
    scaling: float = 1.0
    leading: float = 0.0
    rise: float = 0.0

    def copy(self) -> "_State":
        return _State(self.ctm, self.font, self.font_name, self.size, self.char_spacing, self.word_spacing,
                      self.scaling, self.leading, self.rise)


class _Interpreter:
    """Runs a document's content streams, page by page, and collects each page's letters in the order they are
    drawn; it decodes each font once for the whole document, as pages share their fonts."""

    def __init__(self, reader, name: str) -> None:
        self.reader = reader
        self.name = name
        self.letters: list[Letter] = []
        self._fonts: dict[int, tuple[object, _Font]] = {}  # the resource is kept, so its id is never reused

    def page(self, page) -> list[Letter]:
        from pypdf.generic import ContentStream

        self.letters = []
        if "/Contents" not in page:
            return self.letters
        contents = page["/Contents"].get_object()
        stream = ContentStream(contents, self.reader, "bytes")
        self._run(stream, page.get("/Resources"), _State(), depth=0, active=set())
        return self.letters

    def _font(self, resources, name):
        fonts = resources.get("/Font") if resources is not None else None
        fonts = fonts.get_object() if fonts is not None else None
        if fonts is None or name not in fonts:
            raise UnreadableDocument(f"PDF '{self.name}' cannot be read: the font {name} is not in the page's resources")
        resource = fonts.raw_get(name).get_object()
        known = self._fonts.get(id(resource))
        if known is None:
            known = self._fonts[id(resource)] = (resource, _Font(resource))
        return known[1]

    def _run(self, stream, resources, state: _State, depth: int, active: set) -> None:
        resources = resources.get_object() if resources is not None else None
        stack: list[_State] = []
        tm = tlm = _IDENTITY
        for operands, operator in stream.operations:
            if operator == b"Tj":
                if operands and isinstance(operands[0], bytes):
                    tm = self._show(operands[0], state, tm)
            elif operator == b"TJ":
                if operands and isinstance(operands[0], list):
                    for item in operands[0]:
                        if isinstance(item, bytes):
                            tm = self._show(item, state, tm)
                        elif isinstance(item, (int, float)):
                            tx = -float(item) / 1000 * state.size * state.scaling
                            tm = (tm[0], tm[1], tm[2], tm[3], tm[4] + tx * tm[0], tm[5] + tx * tm[1])
            elif operator in (b"'", b'"'):
                if operator == b'"':
                    spacing = _numbers(operands, 2)
                    if spacing is not None:
                        state.word_spacing, state.char_spacing = spacing
                    operands = operands[2:]
                tlm = tm = _mult((1, 0, 0, 1, 0, -state.leading), tlm)
                if operands and isinstance(operands[0], bytes):
                    tm = self._show(operands[0], state, tm)
            elif operator == b"Tf":
                if len(operands) >= 2:
                    state.font = self._font(resources, operands[0])
                    state.font_name = state.font.name
                    size = _numbers(operands[1:], 1)
                    state.size = size[0] if size else state.size
            elif operator == b"BT":
                tm = tlm = _IDENTITY
            elif operator in (b"Td", b"TD"):
                move = _numbers(operands, 2)
                if move is not None:
                    if operator == b"TD":
                        state.leading = -move[1]
                    tlm = tm = _mult((1, 0, 0, 1, move[0], move[1]), tlm)
            elif operator == b"T*":
                tlm = tm = _mult((1, 0, 0, 1, 0, -state.leading), tlm)
            elif operator == b"Tm":
                matrix = _numbers(operands, 6)
                if matrix is not None:
                    tlm = tm = matrix
            elif operator in (b"Tc", b"Tw", b"Tz", b"TL", b"Ts"):
                value = _numbers(operands, 1)
                if value is not None:
                    if operator == b"Tc":
                        state.char_spacing = value[0]
                    elif operator == b"Tw":
                        state.word_spacing = value[0]
                    elif operator == b"Tz":
                        state.scaling = value[0] / 100
                    elif operator == b"TL":
                        state.leading = value[0]
                    else:
                        state.rise = value[0]
            elif operator == b"q":
                stack.append(state.copy())
            elif operator == b"Q":
                if stack:
                    state = stack.pop()
            elif operator == b"cm":
                matrix = _numbers(operands, 6)
                if matrix is not None:
                    state.ctm = _mult(matrix, state.ctm)
            elif operator == b"Do" and operands:
                self._form(resources, operands[0], state, depth, active)

    def _form(self, resources, name, state: _State, depth: int, active: set) -> None:
        from pypdf.generic import ContentStream

        xobjects = resources.get("/XObject") if resources is not None else None
        xobjects = xobjects.get_object() if xobjects is not None else None
        if xobjects is None or name not in xobjects:
            return
        form = xobjects[name].get_object()
        if form.get("/Subtype") != "/Form":
            return  # an image draws no letters
        if id(form) in active or depth >= _MAX_FORM_DEPTH:
            raise UnreadableDocument(f"PDF '{self.name}' cannot be read: its form XObjects draw one another without end")
        inner = state.copy()
        matrix = _numbers(form.get("/Matrix", ()), 6)
        if matrix is not None:
            inner.ctm = _mult(matrix, inner.ctm)
        stream = ContentStream(form, self.reader, "bytes")
        self._run(stream, form.get("/Resources", resources), inner, depth + 1, active | {id(form)})

    def _shown_font(self, state: _State) -> _Font:
        if state.font is None:
            raise UnreadableDocument(f"PDF '{self.name}' cannot be read: text is shown before a font is set")
        return state.font

    def _show(self, data: bytes, state: _State, tm: tuple) -> tuple:
        font = self._shown_font(state)
        size, scaling, rise = state.size, state.scaling, state.rise
        a, b, c, d, e, f = _mult(tm, state.ctm)  # the text matrix in device space; a glyph moves it along (a, b)
        # The glyph's rendering matrix [size·scaling 0 0 size 0 rise] × (text matrix × CTM), in parts:
        along, up = size * scaling * math.hypot(a, b), size * math.hypot(c, d)
        orientation = _orientation(a, b)
        start_x, start_y = e + rise * c, f + rise * d
        moved = 0.0
        letters, name, height = self.letters, state.font_name, font.cap_height * up
        char_spacing, word_spacing = state.char_spacing, state.word_spacing
        for value, width, is_space in font.glyphs(data):
            letters.append(_new_letter(Letter, (value, start_x + moved * a, start_y + moved * b, width * along, height,
                                                name, size, orientation)))
            moved += (width * size + char_spacing + (word_spacing if is_space else 0.0)) * scaling
        return (tm[0], tm[1], tm[2], tm[3], tm[4] + moved * tm[0], tm[5] + moved * tm[1])


class _TextInterpreter(_Interpreter):
    """Collects only the letters' values (Page.Text needs no position): the same reading and refusals, without
    the geometry of each glyph."""

    def _show(self, data: bytes, state: _State, tm: tuple) -> tuple:
        self.letters.extend([value for value, _, _ in self._shown_font(state).glyphs(data)])
        return tm  # where the next string starts does not change the text


def document_letters(reader, name: str) -> Iterator[list[Letter]]:
    """Each page's letters in the order its content stream draws them (PdfPig's ``page.Letters``), with each
    font decoded once for the document."""
    interpreter = _Interpreter(reader, name)
    return (interpreter.page(page) for page in reader.pages)


def document_texts(reader, name: str) -> Iterator[str]:
    """Each page's ``page_text``, read without working out where each letter is."""
    interpreter = _TextInterpreter(reader, name)
    return ("".join(interpreter.page(page)) for page in reader.pages)


def page_text(letters: list[Letter]) -> str:
    """PdfPig's ``Page.Text``: the letters' values concatenated, nothing inserted."""
    return "".join(letter.value for letter in letters)


def _reading_order(letter: Letter) -> tuple[float, float]:
    return -letter.y, letter.x


def words(letters: list[Letter]) -> Iterator[list[Letter]]:
    """PdfPig's ``DefaultWordExtractor``: the letters sorted top to bottom, then left to right, cut into words."""
    so_far: list[Letter] = []
    # Per rounded font size: each gap's [count, first seen], and the most common gap (ties: the first seen),
    # as [counts, (gap, count, first seen) or None]; ``gap_stats`` finds it by the letter's own size.
    by_rounded_size: dict[float, list] = {}
    gap_stats: dict[float, list] = {}
    line_y = 0.0
    last: Letter | None = None
    # The last letter's fields, unpacked once: this loop runs for every letter of the document.
    last_x = last_width = last_height = last_size = 0.0
    last_font, last_orientation = "", 0
    for letter in sorted(letters, key=_reading_order):
        value, x, y, width, height, font, size, orientation = letter
        blank = not value.strip()
        if last is None:
            if blank:
                continue
            so_far.append(letter)
        elif y < line_y - 0.5:
            if so_far:
                yield so_far
                so_far = []
            if not blank:
                so_far.append(letter)
        else:
            taller = last_height if last_height > height else height
            gap = x - (last_x + last_width)
            size_differs = abs(size - last_size) > 0.1
            cut = (blank or x < last_x - 1 or gap > taller * 0.39 or size_differs
                   or orientation != last_orientation
                   or (font != last_font and gap > width * 0.1 and font.lower() != last_font.lower()))
            if not size_differs and size > 0 and gap >= 0:
                stats = gap_stats.get(size)
                if stats is None:
                    stats = gap_stats[size] = by_rounded_size.setdefault(float(round(size)), [{}, None])
                counts = stats[0]
                rounded = round(gap, 2)
                entry = counts.get(rounded)
                if entry is None:
                    entry = counts[rounded] = [0, len(counts)]
                entry[0] += 1
                best = stats[1]
                if best is None or entry[0] > best[1] or (entry[0] == best[1] and entry[1] < best[2]):
                    best = stats[1] = (rounded, entry[0], entry[1])
                if len(counts) > 1 and gap > taller * 0.16 and gap > best[0] * 5 and best[1] > 1:
                    cut = True  # a suspect gap: far wider than the most common one
            if cut and so_far:
                yield so_far
                so_far = []
            if not blank:
                so_far.append(letter)
            last = letter
            last_x, last_width, last_height, last_size, last_font, last_orientation = (x, width, height, size, font,
                                                                                       orientation)
            continue
        # The first letter of the page, or of a new line.
        line_y, last = y, letter
        last_x, last_width, last_height, last_size, last_font, last_orientation = x, width, height, size, font, orientation
    if so_far:
        yield so_far
