"""Regression tests for the defects that the fuzz suite and the damaged-file corpus found (issue 10): damaged files
are refused with an error naming the file, never read in part; JSON the framework would not parse is refused with its
"Invalid JSON" text, never a Python exception. Reserved places (a node at a file's path, an id Get cannot name):
snippets/mesh_plugin_04_reserved_places.py."""

from __future__ import annotations

import base64
import io
import json

import pytest

from agentkit import PathError, content_collection_plugin, get_text, index_text, mesh_plugin, parse_path, tools_by_name
from agentkit._errors import InvalidJson, UnreadableDocument
from agentkit._json import INVALID_JSON_TIP, load_json, repair_json
from tests import corpus
from tests.mesh_state import COMPANY, NOTE, file_text, mcp, snapshot, workspace


# -- damaged files: pypdf, openpyxl and the docx reader read past damage; agentkit refuses it ----------------

PDF = corpus.fpdf2_pdf().data
XLSX, DOCX = ({case.label: case.data for case in corpus.damaged(name)} for name in ("figures.xlsx", "review.docx"))


def _flipped_at(marker: bytes, offset: int) -> bytes:
    return corpus.flipped(PDF, PDF.index(marker) + offset)


# A sheet's XML truncated and a shared string out of range: must_refuse cases of tests/test_damaged_files.py.
@pytest.mark.parametrize("name, damaged, message", [
    # a flipped byte in 'stream' makes page 1's content a dictionary, which pypdf reads as an empty page
    ("f.pdf", _flipped_at(b"stream\n", 2), r"PDF 'f\.pdf' cannot be read: the content stream of page 1 is damaged"),
    ("f.pdf", PDF.replace(b"/Count 2", b"/Count 3"), r"declares 3 page\(s\) but 2 can be read"),
    ("f.pdf", PDF.replace(b"/Kids [3 0 R\n5 0 R]", b"/Kids []         "), "has no pages"),
    # a broken page dictionary: pypdf logs the repair and reads page 1 as empty (an intact blank page needs none and is
    # read: tests/test_transformers.py, test_pdf_leading_pages_without_text_add_no_newline)
    ("f.pdf", _flipped_at(b"3 0 obj\n<<\n/Contents", len(b"3 0 obj\n<<")),
     r"page 1 lost its text to damage \(.*Invalid Elementary Object"),
    ("w.xlsx", XLSX["listed sheet part missing"],
     r"Workbook 'w\.xlsx' cannot be read: sheet 'Notes' is listed but its part 'xl/worksheets/sheet2\.xml' is missing"),
    ("w.xlsx", XLSX["xl/worksheets/sheet1.xml with a stray '<'"], r"Workbook 'w\.xlsx' cannot be read"),
    # Strict Open XML: openpyxl and the docx reader answered empty text
    ("w.xlsx", XLSX["Strict OOXML namespaces"], r"Workbook 'w\.xlsx' cannot be read: it is Strict Open XML"),
    ("d.docx", DOCX["Strict OOXML namespaces"], r"Document 'd\.docx' cannot be read: it is Strict Open XML"),
], ids=["stream keyword", "page count", "no pages", "repaired page", "missing sheet part", "stray <", "strict xlsx",
        "strict docx"])
def test_get_refuses_a_damaged_file_rather_than_read_it_in_part(name, damaged, message):
    with pytest.raises(UnreadableDocument, match=message):
        get_text(name, damaged)


def test_get_refuses_a_pdf_whose_flate_stream_fails_its_checksum():
    """One flipped byte in compressed page text: pypdf recovers 'Revenue grew to 5813 million in FY3035.'
    from the corrupt stream; zlib's checksum says the stream is damaged, so the file is refused."""
    broken = _flipped_at(b"stream\nx", 25)
    from pypdf import PdfReader

    assert "5813" in PdfReader(io.BytesIO(broken)).pages[0].extract_text()  # what reading past the damage gives
    with pytest.raises(UnreadableDocument, match=r"the content stream of page 1 is damaged"):
        get_text("f.pdf", broken)
    with pytest.raises(UnreadableDocument):
        index_text("f.pdf", broken)


def test_get_reads_every_row_of_xlsx_whose_dimension_understates_the_used_range():
    damaged = XLSX["dimension understates the used range"]
    assert b'<dimension ref="A1"' in corpus.zip_parts(damaged)["xl/worksheets/sheet1.xml"]
    text = get_text("w.xlsx", damaged)
    assert "| 3 | EBIT | 530.2 | 498.7 |" in text
    assert text == get_text("w.xlsx", corpus.openpyxl_xlsx().data)


# -- DOCX ------------------------------------------------------------------------------------------------

# "Heading²": str.isdigit() says yes, int() says no; "Heading١", an Arabic-Indic digit: int() reads it.
@pytest.mark.parametrize("style", ["Heading²", "Heading99999999999999999999", "Heading0", "Heading-1", "Heading١"])
def test_docx_paragraph_whose_style_is_not_heading_1_to_9_reads_as_a_plain_paragraph(style):
    data = corpus.docx_bytes(((style, "Annual review"), (None, "Body text.")))
    assert get_text("d.docx", data) == index_text("d.docx", data).text == "Annual review\n\nBody text."
    assert get_text("d.docx", corpus.docx_bytes((("Heading3", "Annual review"),))) == "### Annual review"


# -- JSON the framework would not parse ---------------------------------------------------------------------

DEPTH = "Invalid JSON: The maximum configured depth of 64 has been exceeded."
DIGITS = "Invalid JSON: A number has more than 4300 digits."
DEEP_NODE = f"{DEPTH} {INVALID_JSON_TIP}"  # Create's answer adds the framework's tip
NODE = '{"id": "n", "name": "N", "nodeType": "Fact", "content": '


@pytest.mark.parametrize("tool, arguments, refusal", [
    ("create", {"node": "[" * 65 + "]" * 65}, DEEP_NODE),  # System.Text.Json's default MaxDepth is 64
    ("create", {"node": NODE + '{"a":' * 5000 + "1" + "}" * 5001}, DEEP_NODE),  # past Python's recursion limit too
    ("create", {"node": NODE + '{"a":' * 70 + "1" + "}" * 71}, DEEP_NODE),
    ("update", {"nodes": "[" + "9" * 5000 + "]"}, DIGITS),
    ("delete", {"paths": "[" + "9" * 5000 + "]"}, DIGITS),
    ("delete", {"paths": "[" * 3000}, DEPTH),
], ids=["65 arrays", "5000 objects", "70 objects", "update digits", "delete digits", "delete depth"])
def test_json_nested_past_64_levels_or_with_thousands_of_digits_is_refused_as_invalid_json(tool, arguments, refusal):
    mesh = workspace()
    before = snapshot(mesh)
    for call in (mcp(mesh)[tool], tools_by_name(mesh_plugin(mesh))[tool.capitalize()]):
        assert call.call(arguments) == refusal
    assert snapshot(mesh) == before


def test_create_accepts_json_nested_exactly_64_levels():
    mesh = workspace()
    content = json.loads('{"a":' * 63 + "1" + "}" * 63)  # the node object is level 1, its content level 2
    node = {"id": "deep", "name": "Deep", "nodeType": "Markdown", "content": content}
    assert mcp(mesh)["create"].call({"node": json.dumps(node)}) == "Created: deep"


def test_the_shortest_text_that_holds_a_too_long_integer_is_refused():
    """load_json walks a value for its limits only when its text is long enough to break one: the shortest such
    text, the digits of 2 ** 14,000, is refused, and the integer one below it is read."""
    with pytest.raises(InvalidJson, match="more than 4300 digits"):
        load_json(str(1 << 14_000))
    assert load_json(str((1 << 14_000) - 1)) == (1 << 14_000) - 1


def test_repair_json_keeps_the_first_complete_value_as_the_framework_does():
    assert repair_json('{"a": 1} and then {"b":') == '{"a": 1}'
    assert repair_json('  [1, [2]] ] trailing') == "  [1, [2]]"
    assert repair_json('{"a": [1, 2') == '{"a": [1, 2'  # nothing parses: the text is left as it is
    assert repair_json('"text" }') == '"text" }'  # the first value is no object or array


# -- other hostile values ---------------------------------------------------------------------------------

@pytest.mark.parametrize("content", [[], "x", 0, 4812.3, True, [{"value": 1}]])
def test_content_that_is_not_an_object_is_refused_on_a_node_type_with_a_schema(content):
    """Create with content [] or "x" answered Created on a node type that registers a schema: agentkit checked
    objects only. The framework converts any content to the type (MeshOperations.ValidateContentAgainstSchema)
    and refuses what is not an object with M6's text, in Create, Update and Patch alike; nothing is written."""
    mesh = workspace()  # its Fact type registers a schema; Acme/rev is a Fact
    before = snapshot(mesh)
    node = {"id": "f", "namespace": COMPANY, "name": "F", "nodeType": "Fact", "content": content}
    refusal = "Error: Content does not match the schema for NodeType 'Fact'. "
    agent, server = tools_by_name(mesh_plugin(mesh)), mcp(mesh)
    answers = [agent["Create"].call({"node": json.dumps(node)}), server["create"].call({"node": json.dumps(node)}),
               agent["Update"].call({"nodes": json.dumps([{**node, "id": "rev"}])}),
               agent["Patch"].call({"path": f"{COMPANY}/rev", "fields": json.dumps({"content": content})})]
    # verifies: mesh.create-schema-mismatch
    assert all(answer.startswith(refusal) and "must be a JSON object" in answer for answer in answers), answers
    # verifies: mesh.create-nothing-written-on-error
    assert snapshot(mesh) == before
    assert mesh.create({**node, "nodeType": "Note"}).node.content == content  # no schema: stored as sent (untyped)


def test_parse_path_refuses_a_non_string_path_with_a_path_error():
    for value in (-(10**5000), [[[]]], None):
        with pytest.raises(PathError, match="a path is a string"):
            parse_path(value)


@pytest.mark.parametrize("chunk_index", [10**5000, 2**40, "9" * 6000], ids=["5001 digits", "2**40", "6000 nines"])
def test_get_chunk_refuses_an_index_past_32_bits_instead_of_failing(chunk_index):
    """The framework binds chunkIndex to an int; a number of thousands of digits made agentkit fail inside
    the answer (Python cannot print it)."""
    mesh = workspace()
    for tool in (mcp(mesh)["get_chunk"], tools_by_name(content_collection_plugin(mesh))["GetChunk"]):
        answer = tool.call({"collectionPath": f"{COMPANY}/content", "filePath": NOTE, "chunkIndex": chunk_index})
        assert answer.startswith("chunkIndex must be a whole number from -2147483648 to 2147483647, got "), answer


def test_with_canonical_paths_a_name_that_decodes_to_a_bare_percent_is_refused_not_stored_unreadable():
    """Under the canonical-paths extension '%25.md' was stored as '%.md', a name the listing shows but every
    Get decodes again (and refuses): the file could not be read back at its own path."""
    mesh = workspace()
    mesh.canonical_paths = True
    before = snapshot(mesh)
    answer = mcp(mesh)["upload"].call({"path": f"{COMPANY}/content/%25.md", "base64Content": base64.b64encode(b"x").decode()})
    assert answer == "File path '%25.md' decodes to '%.md', which a path cannot name again (canonical paths decode " \
                     "every path); rename the file without a '%'"
    assert snapshot(mesh) == before
    assert mcp(mesh)["upload"].call({"path": f"{COMPANY}/content/caf%C3%A9.md", "base64Content": "eA=="}).startswith('{"status"')
    assert file_text(mcp(mesh)["get"].call({"path": f"{COMPANY}/content/café.md"})) == "x"


@pytest.mark.parametrize("fields", [{"name": {}}, {"name": 5}, {"icon": [1]}, {"description": {"a": 1}}])
def test_patch_refuses_a_non_string_node_field_and_writes_nothing(fields):
    """Patch stored {"name": {}} and then failed while indexing the node: the write had happened, the answer
    was a failure. The framework's deserializer refuses a non-string for MeshNode's string properties."""
    mesh = workspace()
    before = snapshot(mesh)
    key = next(iter(fields))
    answer = mcp(mesh)["patch"].call({"path": f"{COMPANY}/rev", "fields": json.dumps(fields)})
    assert answer == f"Error: The JSON value could not be converted to System.String. Path: $.{key}."
    assert snapshot(mesh) == before
    created = mcp(mesh)["create"].call({"node": json.dumps({"id": "n", "name": "N", "nodeType": "Fact", **fields})})
    assert created.startswith("Invalid JSON: ") and key in created, created
    assert snapshot(mesh) == before
