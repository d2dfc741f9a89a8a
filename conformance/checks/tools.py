"""What the MCP server publishes (page: Mesh plugin): tool names, parameters, defaults, annotations, argument checks."""

from __future__ import annotations

from conformance.suite import Fixtures, check

READ_TOOLS = ("get", "search", "search_chunks", "get_chunk")
WRITE_TOOLS = ("upload", "create", "update", "patch", "delete", "move", "copy")
DESTRUCTIVE = {"update": True, "patch": True, "delete": True, "move": True, "create": False, "upload": False, "copy": False}


def schema(fx: Fixtures, tool: str) -> dict:
    return fx.mcp.tools[tool].input_schema


@check("mesh.tools-listed", needs=set(READ_TOOLS + WRITE_TOOLS))
async def tool_names(fx: Fixtures) -> None:
    missing = [name for name in READ_TOOLS + WRITE_TOOLS if name not in fx.mcp.tools]
    # verifies: mesh.tools-listed
    assert not missing, f"tools/list lacks {missing}"
    for name in READ_TOOLS:
        hints = fx.mcp.tools[name].annotations
        # verifies: mesh.tools-listed
        assert hints is not None and hints.read_only_hint is True, f"{name} is not annotated read-only: {hints}"
    for name, destructive in DESTRUCTIVE.items():
        hints = fx.mcp.tools[name].annotations
        # verifies: mesh.tools-listed
        assert hints is not None and hints.read_only_hint is not True and hints.destructive_hint is destructive, \
            f"{name} should be annotated destructive={destructive}: {hints}"


@check("mesh.tools-listed", needs={"search", "search_chunks", "copy"})
async def parameters_and_defaults(fx: Fixtures) -> None:
    expected = {
        "search": {"query": None, "basePath": ("default", None), "limit": ("default", 50)},
        "search_chunks": {"query": None, "scope": ("default", None), "limit": ("default", 20)},
        "copy": {"sourcePath": None, "targetNamespace": None, "force": ("default", False)},
    }
    for tool, parameters in expected.items():
        published = schema(fx, tool)
        properties = published.get("properties", {})
        # verifies: mesh.tools-listed
        assert list(properties) == list(parameters), f"{tool} takes {list(properties)}, expected {list(parameters)}"
        for name, default in parameters.items():
            if default is None:
                # verifies: mesh.tools-listed
                assert name in published.get("required", []), f"{tool}.{name} is not required"
            else:
                # verifies: mesh.tools-listed
                assert properties[name].get("default", "absent") == default[1], \
                    f"{tool}.{name} defaults to {properties[name].get('default', 'nothing')!r}, expected {default[1]!r}"


@check("mesh.unknown-argument-refused", needs={"get"})
async def unknown_argument(fx: Fixtures) -> None:
    result = await fx.mcp.call_result("get", {"path": fx.namespace, "nodes": "x"})
    text = result.content[0].text if result.content and hasattr(result.content[0], "text") else ""
    # verifies: mesh.unknown-argument-refused
    assert result.is_error and text.startswith("Error: unknown argument 'nodes' for tool 'get' — expected one of: path."), \
        f"get with an unknown argument answered is_error={result.is_error}: {text[:120]!r}"
